import StatlineCore

/// ESPN league slugs and the sports they are (architecture.md#sports): told apart by the slug the answer
/// and the URL name, never guessed. A league not listed is read once the configuration names its
/// sport (`sources.espn.options.league.<slug>: <sport>`); until then its scoreboard is refused.
enum ESPNLeagues {
  static let known: [String: Sport] = [
    "mens-college-lacrosse": .lacrosseMen, "womens-college-lacrosse": .lacrosseWomen,
    "mens-college-basketball": .basketballMen, "womens-college-basketball": .basketballWomen,
    "college-football": .football, "college-baseball": .baseball, "college-softball": .softball,
    "mens-college-hockey": .iceHockeyMen, "womens-college-hockey": .iceHockeyWomen,
    "womens-college-volleyball": .volleyballWomen, "mens-college-volleyball": .volleyballMen,
    "usa.ncaa.m.1": .soccerMen, "usa.ncaa.w.1": .soccerWomen,
  ]

  /// Sports played in the fall, whose ESPN season is the year it starts (college-football 2025 is
  /// fall 2025): Statline's season is the academic year it ends in, one more.
  static let fallSports: Set<Sport> = [.football, .soccerMen, .soccerWomen, .volleyballWomen, .fieldHockey]

  /// Statline's season (the academic year) of ESPN's season `year` of `sport`.
  static func season(espnYear year: Int, sport: Sport) -> Int { fallSports.contains(sport) ? year + 1 : year }

  /// The configured leagues (`league.<slug>` options) over the known ones.
  static func leagues(_ settings: PluginSettings) -> [String: Sport] {
    var leagues = known
    for (key, value) in settings.options[ESPNSource.id] ?? [:] where key.hasPrefix("league.") {
      leagues[String(key.dropFirst("league.".count))] = Sport(value)
    }
    return leagues
  }

  /// `…/sports/lacrosse/mens-college-lacrosse/scoreboard?…` → `mens-college-lacrosse`.
  static func slug(inURL url: String?) -> String? {
    guard let url, let range = url.range(of: "/sports/") else { return nil }
    let parts = url[range.upperBound...].split(separator: "/")
    return parts.count >= 3 && parts[2].hasPrefix("scoreboard") ? String(parts[1]) : nil
  }
}
