import StatlineCore

/// The sport a StatBroadcast page or StatCrew file names by its code: a calendar's sport column
/// (`MLAX`, `WBB`), or a game file's `sportcode` attribute on `<venue>` or on its root (a 2015 Stat
/// Crew writer's `<venue sportcode="MBB">`, with no `gender` anywhere). The file saying what it is:
/// read before the sport its target was found with.
enum StatCrewSportCode {
  /// StatBroadcast's codes, and the NCAA's two-letter lacrosse codes some writers use.
  static let sports: [String: Sport] = [
    "MLAX": .lacrosseMen, "WLAX": .lacrosseWomen, "MLA": .lacrosseMen, "WLA": .lacrosseWomen,
    "MBB": .basketballMen, "WBB": .basketballWomen, "FB": .football, "MSOC": .soccerMen, "WSOC": .soccerWomen,
    "MVB": .volleyballMen, "WVB": .volleyballWomen, "WFHK": .fieldHockey, "MICEHK": .iceHockeyMen,
    "WICEHK": .iceHockeyWomen, "BSB": .baseball, "SB": .softball,
  ]

  /// The sport of `code` (case and spaces ignored), nil when it is no known code.
  static func sport(_ code: String?) -> Sport? {
    code.flatMap { sports[$0.uppercased().trimmingCharacters(in: .whitespaces)] }
  }

  /// The sport a file's `sportcode` names, when it is one of `family` (a basketball reader takes
  /// only a basketball code), and where it was read (`<venue sportcode="MBB">`), for the warning
  /// that says where the sport came from.
  static func stated(venue: [String: String], root: String, rootAttributes: [String: String], among family: Set<Sport>)
    -> (sport: Sport, source: String)?
  {
    for (element, attributes) in [("venue", venue), (root, rootAttributes)] {
      guard let code = attributes["sportcode"], let sport = sport(code), family.contains(sport) else { continue }
      return (sport, "<\(element) sportcode=\"\(code)\">")
    }
    return nil
  }

  /// The warning naming where the sport came from when the file names no gender.
  static func warning(_ source: String, _ sport: Sport) -> String {
    "the file names no gender: the sport (\(sport.rawValue)) is read from its \(source)"
  }
}

extension GroupedGame {
  /// The sport the file's `sportcode` names among `family`, with a warning saying where it was
  /// read; nil when it names none of them.
  func statedSport(among family: Set<Sport>, _ warnings: inout [String]) -> Sport? {
    guard let stated = StatCrewSportCode.stated(venue: venue, root: root, rootAttributes: rootAttributes, among: family)
    else { return nil }
    warnings.append(StatCrewSportCode.warning(stated.source, stated.sport))
    return stated.sport
  }
}
