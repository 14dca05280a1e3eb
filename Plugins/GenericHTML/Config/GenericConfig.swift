import StatlineCore

/// A source defined entirely by a YAML file: which pages it reads and how to turn them into
/// games and teams, with no Swift code. See the README section "Writing a GenericHTML config".
public struct GenericConfig: Sendable {
  /// The parser id (`ncaa-team-schedule`); unique across all parsers.
  public var id: String
  public var summary: String
  /// The id namespace of the site the page comes from (`ncaa`, `statbroadcast`).
  public var namespace: String
  /// The sport for games that do not name one.
  public var sport: Sport?
  public var urlPatterns: [URLPattern]
  /// Strings that must all appear in a page for the config to claim it by content.
  public var contains: [String]
  /// Whether a page must end with `</html>` (a cut-off page is then an error, not fewer rows).
  /// Default true; set `match.complete: false` for fragments.
  public var requireComplete: Bool
  /// Fields read once per page, available to templates as `{page.NAME}`.
  public var pageFields: [FieldSpec]
  public var games: RecordSection?
  public var teams: RecordSection?
  /// Caveats added to every batch the config yields (what the page cannot tell).
  public var warnings: [String]
  /// The file the config was read from.
  public var file: String?
}

/// One kind of record a config yields, read from each row that `rows` selects (or once from the
/// whole page when `rows` is absent).
public struct RecordSection: Sendable {
  public var rows: Selector?
  public var fields: [FieldSpec]
}

/// A CSS selector or an XPath expression.
public enum Selector: Sendable, Equatable {
  case css(String)
  case xpath(String)
}

/// How one field is read: where from, then a fixed chain of small transforms.
///
/// Order: select → text or attribute → trim → regex → map → type → add → format → default →
/// required.
public struct FieldSpec: Sendable {
  public enum Origin: Sendable, Equatable {
    case select(Selector)
    /// A literal or a template over earlier fields: `"ncaa:{contestId}"`, `"{page.teamName}"`.
    case template(String)
    /// The page URL.
    case url
  }

  public enum ValueType: String, Sendable, CaseIterable {
    case string, integer, date, boolean
  }

  public var name: String
  /// Where the config says it, for error messages (`games.fields.date`, line 12).
  public var keyPath: String
  public var origin: Origin
  public var attribute: String?
  /// Concatenate the text of every match instead of taking the first.
  public var joinAll: Bool
  public var trim: Bool
  /// Patterns tried in order; the first that matches gives capture group 1 (or the whole match).
  public var regex: [RegexPattern]
  public var map: [String: String]
  /// The value for anything `map` does not list (`nil`: keep the value).
  public var otherwise: String?
  public var type: ValueType
  /// The input format for `type: date` (`MM/dd/yyyy`, `MM-dd-yy`).
  public var dateFormat: DateFormat?
  /// Added to an integer.
  public var add: Int?
  /// A template applied to the value: `"ncaa:{value}"`.
  public var format: String?
  /// A template used when the value is missing.
  public var defaultValue: String?
  public var required: Bool
}
