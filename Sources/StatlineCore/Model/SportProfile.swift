/// What a sport is, for every part of Statline that must know (architecture.md#sports): what its periods
/// are called and how many make regulation, how overtime continues the count, what a score is
/// made of, and its stat keys. `SportProfile.of(_:)` is the one place that says it.
public struct SportProfile: Sendable, Equatable {
  /// What one period of play is.
  public enum Period: String, Sendable, Equatable, CaseIterable {
    case half, quarter, period, inning, set

    /// The period's name: "Half", "Quarter", "Period", "Inning", "Set".
    public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
  }

  /// How play goes on past regulation.
  public enum Overtime: String, Sendable, Equatable {
    /// Overtime periods continue the count: period 5 is the first overtime after 4 quarters.
    case overtimePeriods
    /// Extra innings continue the count: the 10th inning after 9.
    case extraInnings
    /// None: the match ends when a side has won the sets it needs.
    case none
  }

  /// What a score is made of.
  public enum Scoring: String, Sendable, Equatable {
    /// Goals, one at a time (lacrosse, soccer, field hockey, ice hockey).
    case goals
    /// Points in 1, 2 or 3 (basketball) or 1, 2, 3 and 6 (football).
    case points
    /// Runs (baseball, softball); the period scores are runs per inning.
    case runs
    /// Sets won; the period scores are each set's points.
    case sets
  }

  public var sport: Sport
  /// "Men's lacrosse", "Baseball".
  public var name: String
  public var period: Period
  /// Periods in regulation; for sets, the most a match can take (5: best of five).
  public var regulationPeriods: Int
  public var overtime: Overtime
  public var scoring: Scoring
  /// The box score's keys, lower-camel (architecture.md#the-contract), in the order they are documented.
  public var statKeys: [String]
  /// The key that adds up to the score in a box score (`goals`, `points`, `runs`), nil where
  /// the score is sets won.
  public var scoringKey: String?
  /// The most one side can plausibly score in a game, well above any college game's (222 points
  /// is football's oldest record): a score beyond it is a page or parser gone wrong, and the
  /// game is refused, named (`BatchValidator`).
  public var maxScore: Int
  /// The most periods a game can plausibly reach, overtime included, well above the longest
  /// college games: a period beyond it is refused, so a bad page never derives millions of
  /// period events.
  public var maxPeriods: Int

  /// The limits of a sport Statline has no profile of (`unknown`, or a configured sport): wide,
  /// for a sport nobody here knows, yet finite.
  public static let unknownMaxScore = 10_000
  public static let unknownMaxPeriods = 100

  /// A sport whose score is goals: its scores are `game.goal` events.
  public var countsGoals: Bool { scoring == .goals }

  /// A period's name as the model writes it when the page gives none: "1st Quarter", "2nd
  /// Half", "OT", "2OT", "5th Inning", "10th Inning", "Set 3".
  public func periodLabel(_ number: Int) -> String {
    switch period {
    case .set: return "Set \(number)"
    case .inning: return "\(Self.ordinal(number)) Inning"
    default:
      if number > regulationPeriods {
        let overtime = number - regulationPeriods
        return overtime == 1 ? "OT" : "\(overtime)OT"
      }
      return "\(Self.ordinal(number)) \(period.name)"
    }
  }

  /// 1 → "1st", 2 → "2nd", 11 → "11th", 22 → "22nd".
  public static func ordinal(_ number: Int) -> String {
    let tens = number % 100
    if (11...13).contains(tens) { return "\(number)th" }
    switch number % 10 {
    case 1: return "\(number)st"
    case 2: return "\(number)nd"
    case 3: return "\(number)rd"
    default: return "\(number)th"
    }
  }
}
