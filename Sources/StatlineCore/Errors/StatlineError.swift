/// The one error type that crosses module boundaries: what failed, where, and what to do.
///
/// It names the source plugin, the parser, the URL or file, the reason, and where in the
/// document the failure was found, so a log line alone is enough to reproduce it with
/// `statline replay`.
public struct StatlineError: Error, Sendable, Equatable, CustomStringConvertible {
  public var kind: Kind
  public var source: String?
  public var parser: String?
  /// The page URL, or the file the page or configuration came from.
  public var location: String?
  public var reason: String
  /// Where in the document or configuration: a row, a field, a key path, a line.
  public var context: String?
  /// What the user can do about it.
  public var hint: String?

  public init(
    _ kind: Kind, _ reason: String, source: String? = nil, parser: String? = nil,
    location: String? = nil, context: String? = nil, hint: String? = nil
  ) {
    self.kind = kind
    self.reason = reason
    self.source = source
    self.parser = parser
    self.location = location
    self.context = context
    self.hint = hint
  }

  /// Fills in whichever of source, parser and location are still unknown.
  public func located(source: String? = nil, parser: String? = nil, location: String? = nil)
    -> StatlineError
  {
    var copy = self
    copy.source = copy.source ?? source
    copy.parser = copy.parser ?? parser
    copy.location = copy.location ?? location
    return copy
  }

  public var description: String {
    var head = "\(kind.rawValue): \(reason)"
    if let context { head += " (at \(context))" }
    var place: [String] = []
    if let source { place.append("source \(source)") }
    if let parser { place.append("parser \(parser)") }
    if let location { place.append(location) }
    if !place.isEmpty { head += " [\(place.joined(separator: ", "))]" }
    if let hint { head += ". \(hint)" }
    return head
  }

  /// The category of failure: an open set of named values, so that plugins and later layers
  /// can add kinds without breaking a `switch`.
  public struct Kind: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The body is empty or whitespace only.
    public static let emptyPage = Kind(rawValue: "empty page")
    /// The bytes are not text in the expected encoding, or not a document at all.
    public static let undecodable = Kind(rawValue: "undecodable page")
    /// The body ends before the document does (a cut connection, a size limit).
    public static let truncated = Kind(rawValue: "truncated page")
    /// The document is not the kind of page the parser reads (or is damaged past reading).
    public static let wrongPage = Kind(rawValue: "wrong page")
    /// A bot challenge, an access wall, a login page or a refusal: never parsed, never solved.
    public static let blocked = Kind(rawValue: "blocked")
    /// The page is of a sport or variant the parser does not support.
    public static let unsupported = Kind(rawValue: "unsupported")
    /// The normalized batch broke a rule of architecture.md#failure.
    public static let validation = Kind(rawValue: "validation failed")
    /// Some records of the page were refused or stored unread (the rest was stored): the
    /// kind of a partial page's capture.
    public static let partial = Kind(rawValue: "partial page")
    /// Configuration (a YAML file, a flag) is wrong.
    public static let configuration = Kind(rawValue: "configuration error")
    /// No registered parser claims the page.
    public static let noParser = Kind(rawValue: "no parser")
    /// More than one registered parser claims the page equally.
    public static let ambiguousParser = Kind(rawValue: "ambiguous parser")
    /// A document is refused for safety (external entities, entity declarations, limits).
    public static let unsafeDocument = Kind(rawValue: "unsafe document")
    /// The request did not complete: refused, reset, timed out, too many redirects.
    public static let network = Kind(rawValue: "network error")
    /// The store could not read or write (a locked, corrupt or full database).
    public static let store = Kind(rawValue: "store error")
    /// Reading or writing a local file failed.
    public static let io = Kind(rawValue: "i/o error")
    /// A golden file does not match, or is missing.
    public static let goldenMismatch = Kind(rawValue: "golden mismatch")
  }
}

extension StatlineError {
  /// The kind a stored error's text begins with (`blocked: the page …` → `blocked`), or `error`:
  /// what an unauthenticated answer may say of an error whose text can quote the page.
  public static func kindName(of description: String) -> String {
    guard let colon = description.range(of: ": ") else { return "error" }
    let kind = description[..<colon.lowerBound]
    guard (1...40).contains(kind.count), kind.allSatisfy({ $0.isLowercase || $0 == " " || $0 == "/" }) else {
      return "error"
    }
    return String(kind)
  }
}
