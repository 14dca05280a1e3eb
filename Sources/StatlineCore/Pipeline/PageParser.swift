/// Reads one kind of page into source-shaped records.
///
/// HTML, XML and JSON parsers all conform: they differ only in how they load the document
/// (`StatlineHTML` for markup, Foundation for JSON). A parser is total: any input gives
/// either records or a `StatlineError`, never a crash and never a silently empty result.
public protocol PageParser: Sendable {
  /// What the parser yields: the page's facts in the site's own shape.
  associatedtype Records: Sendable
  func parse(_ page: Page) throws -> Records
}

/// Turns a parser's records into the normalized model (DESIGN.md §4).
public protocol Normalizer: Sendable {
  associatedtype Records: Sendable
  func normalize(_ records: Records, page: Page) throws -> Batch
}

/// The kind of document a parser reads.
public enum DocumentFormat: String, Sendable, Codable, CaseIterable {
  case html, xml, json

  /// The file extension a saved page of this format has.
  public var fileExtension: String { rawValue }
}
