/// Reads one kind of page into source-shaped records.
///
/// HTML, XML and JSON parsers all conform: they differ only in how they load the document
/// (`StatlineHTML` for markup, `JSONDocument` for JSON). A parser is total: any input gives
/// either records or a `StatlineError`, never a crash and never a silently empty result.
public protocol PageParser: Sendable {
  /// What the parser yields: the page's facts in the site's own shape.
  associatedtype Records: Sendable
  func parse(_ page: Page) throws -> Records
}

/// Turns a parser's records into the normalized model (architecture.md#the-contract).
public protocol Normalizer: Sendable {
  associatedtype Records: Sendable
  func normalize(_ records: Records, page: Page) throws -> Batch
}

/// The kind of document a parser reads.
public enum DocumentFormat: String, Sendable, Codable, CaseIterable {
  case html, xml, json

  /// The file extension a saved page of this format has.
  public var fileExtension: String { rawValue }

  /// Whether the body can be a document of this format at all: its first byte after white space
  /// (and a UTF-8 byte-order mark) is `<` for HTML and XML, `{` or `[` for JSON. Sniffers look for
  /// words; this keeps a file that merely mentions them (a JSON list of facts about a calendar)
  /// from being taken for the page.
  public func admits(_ page: Page) -> Bool {
    var bytes = page.body.prefix(4096)[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    guard let first = bytes.first(where: { !Self.isWhiteSpace($0) }) else { return false }
    switch self {
    case .html, .xml: return first == UInt8(ascii: "<")
    case .json: return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
  }

  private static func isWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
  }
}
