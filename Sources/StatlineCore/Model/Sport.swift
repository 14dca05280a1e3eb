/// A sport, as `kind-gender` (`lacrosse-men`, `basketball-women`): an open set, so a new
/// source can add sports without changing the core.
public struct Sport: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public static let lacrosseMen = Sport("lacrosse-men")
  public static let lacrosseWomen = Sport("lacrosse-women")
  public static let basketballMen = Sport("basketball-men")
  public static let basketballWomen = Sport("basketball-women")
  /// A sport the page did not name or the parser does not know.
  public static let unknown = Sport("unknown")

  public var description: String { rawValue }

  /// Men's or women's lacrosse (`lacrosse-…`).
  public var isLacrosse: Bool { rawValue.hasPrefix("lacrosse-") }

  /// Periods before overtime (its profile's; four for a sport without one, as lacrosse).
  public var regulationPeriods: Int { profile?.regulationPeriods ?? 4 }

  /// The most one side can plausibly score, and the most periods a game can reach (its
  /// profile's; wide but finite for a sport without one).
  public var maxScore: Int { profile?.maxScore ?? SportProfile.unknownMaxScore }
  public var maxPeriods: Int { profile?.maxPeriods ?? SportProfile.unknownMaxPeriods }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(rawValue)
  }
}
