/// Every sport Statline names (architecture.md#the-contract), with its profile. Lacrosse's keys are
/// `StatKey.lacrosse`, as before; the others follow the same lower-camel style.
extension SportProfile {
  /// The profile of a sport, or nil for one Statline does not know (`unknown`, or a sport a
  /// configuration names).
  public static func of(_ sport: Sport) -> SportProfile? { byId[sport.rawValue] }

  public static let all: [SportProfile] = [
    SportProfile(
      sport: .lacrosseMen, name: "Men's lacrosse", period: .quarter, regulationPeriods: 4,
      overtime: .overtimePeriods, scoring: .goals, statKeys: StatKey.lacrosse, scoringKey: StatKey.goals,
      maxScore: 99, maxPeriods: 16),
    SportProfile(
      sport: .lacrosseWomen, name: "Women's lacrosse", period: .quarter, regulationPeriods: 4,
      overtime: .overtimePeriods, scoring: .goals, statKeys: StatKey.lacrosse, scoringKey: StatKey.goals,
      maxScore: 99, maxPeriods: 16),
    SportProfile(
      sport: .basketballMen, name: "Men's basketball", period: .half, regulationPeriods: 2,
      overtime: .overtimePeriods, scoring: .points, statKeys: SportKeys.basketball, scoringKey: "points",
      maxScore: 300, maxPeriods: 14),
    SportProfile(
      sport: .basketballWomen, name: "Women's basketball", period: .quarter, regulationPeriods: 4,
      overtime: .overtimePeriods, scoring: .points, statKeys: SportKeys.basketball, scoringKey: "points",
      maxScore: 300, maxPeriods: 16),
    SportProfile(
      sport: .baseball, name: "Baseball", period: .inning, regulationPeriods: 9, overtime: .extraInnings,
      scoring: .runs, statKeys: SportKeys.baseball, scoringKey: "runs",
      maxScore: 150, maxPeriods: 40),
    SportProfile(
      sport: .softball, name: "Softball", period: .inning, regulationPeriods: 7, overtime: .extraInnings,
      scoring: .runs, statKeys: SportKeys.baseball, scoringKey: "runs",
      maxScore: 150, maxPeriods: 40),
    SportProfile(
      sport: .football, name: "Football", period: .quarter, regulationPeriods: 4, overtime: .overtimePeriods,
      scoring: .points, statKeys: SportKeys.football, scoringKey: "points",
      maxScore: 300, maxPeriods: 16),
    SportProfile(
      sport: .soccerMen, name: "Men's soccer", period: .half, regulationPeriods: 2, overtime: .overtimePeriods,
      scoring: .goals, statKeys: SportKeys.soccer, scoringKey: "goals",
      maxScore: 50, maxPeriods: 6),
    SportProfile(
      sport: .soccerWomen, name: "Women's soccer", period: .half, regulationPeriods: 2, overtime: .overtimePeriods,
      scoring: .goals, statKeys: SportKeys.soccer, scoringKey: "goals",
      maxScore: 50, maxPeriods: 6),
    SportProfile(
      sport: .soccer, name: "Soccer (men's or women's not stated)", period: .half, regulationPeriods: 2,
      overtime: .overtimePeriods, scoring: .goals, statKeys: SportKeys.soccer, scoringKey: "goals",
      maxScore: 50, maxPeriods: 6),
    SportProfile(
      sport: .fieldHockey, name: "Field hockey", period: .quarter, regulationPeriods: 4,
      overtime: .overtimePeriods, scoring: .goals, statKeys: SportKeys.soccer, scoringKey: "goals",
      maxScore: 50, maxPeriods: 8),
    SportProfile(
      sport: .volleyballWomen, name: "Women's volleyball", period: .set, regulationPeriods: 5, overtime: .none,
      scoring: .sets, statKeys: SportKeys.volleyball, scoringKey: nil,
      maxScore: 3, maxPeriods: 5),
    SportProfile(
      sport: .volleyballMen, name: "Men's volleyball", period: .set, regulationPeriods: 5, overtime: .none,
      scoring: .sets, statKeys: SportKeys.volleyball, scoringKey: nil,
      maxScore: 3, maxPeriods: 5),
    SportProfile(
      sport: .volleyball, name: "Volleyball (men's or women's not stated)", period: .set, regulationPeriods: 5,
      overtime: .none, scoring: .sets, statKeys: SportKeys.volleyball, scoringKey: nil,
      maxScore: 3, maxPeriods: 5),
    SportProfile(
      sport: .iceHockeyMen, name: "Men's ice hockey", period: .period, regulationPeriods: 3,
      overtime: .overtimePeriods, scoring: .goals, statKeys: SportKeys.iceHockey, scoringKey: "goals",
      maxScore: 50, maxPeriods: 12),
    SportProfile(
      sport: .iceHockeyWomen, name: "Women's ice hockey", period: .period, regulationPeriods: 3,
      overtime: .overtimePeriods, scoring: .goals, statKeys: SportKeys.iceHockey, scoringKey: "goals",
      maxScore: 50, maxPeriods: 12),
  ]

  private static let byId: [String: SportProfile] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.sport.rawValue, $0) })
}

extension Sport {
  public static let baseball = Sport("baseball")
  public static let softball = Sport("softball")
  public static let football = Sport("football")
  public static let soccerMen = Sport("soccer-men")
  public static let soccerWomen = Sport("soccer-women")
  /// Soccer from a page that does not say men's or women's (a StatCrew file without a gender).
  public static let soccer = Sport("soccer")
  public static let fieldHockey = Sport("field-hockey")
  public static let volleyballWomen = Sport("volleyball-women")
  public static let volleyballMen = Sport("volleyball-men")
  /// Volleyball from a page that does not say men's or women's (a StatCrew file without a
  /// gender): what the game is, never a guess at which.
  public static let volleyball = Sport("volleyball")
  public static let iceHockeyMen = Sport("ice-hockey-men")
  public static let iceHockeyWomen = Sport("ice-hockey-women")

  /// The sport's profile (`SportProfile.of`), nil for one Statline does not know.
  public var profile: SportProfile? { SportProfile.of(self) }
}
