import Foundation
import StatlineCore

/// Sport codes, start times and team ids as the web service gives them.
enum WebServiceSports {
  /// The event's sport from its code, gender and long name: `bsgame` + `M` → baseball,
  /// `bsgame` + `W` → softball, `sogame` + "Field Hockey" → field hockey, `vbgame` + `W` →
  /// women's volleyball, `fbgame` → football. Where the answer says neither gender nor name, a
  /// code shared by two sports is `unknown`, never a guess; unknown codes are unknown.
  static func sport(code: String, gender: String?, name: String? = nil) -> Sport {
    let letter = gender?.uppercased()
    let women = letter == "W" || letter == "F"
    let men = letter == "M"
    let long = name?.lowercased() ?? ""
    func either(_ womens: Sport, _ mens: Sport) -> Sport {
      women || long.contains("women") ? womens : men || long.contains("men") ? mens : .unknown
    }
    switch code.lowercased() {
    case "lcgame": return either(.lacrosseWomen, .lacrosseMen)
    case "bbgame": return either(.basketballWomen, .basketballMen)
    case "wbbgame": return .basketballWomen
    case "bsgame":
      if long.contains("softball") { return .softball }
      if long.contains("baseball") { return .baseball }
      return women ? .softball : men ? .baseball : .unknown
    case "sbgame": return .softball
    case "fbgame": return .football
    case "vbgame": return either(.volleyballWomen, .volleyballMen)
    case "sogame": return long.contains("field hockey") ? .fieldHockey : either(.soccerWomen, .soccerMen)
    default: return .unknown
    }
  }

  /// A broadcast view's sport: the one its event gave the target (`Page.sport`), else the sport
  /// folder of its XSL (`softball/sb.bsgame.views.broadcast.xsl`), else its code alone.
  static func sport(of page: Page, code: String) -> Sport {
    if let sport = page.sport, sport != .unknown { return sport }
    let folder = page.url.flatMap { WebServiceCodec.parameters(of: $0)["xsl"] }?.split(separator: "/").first
    let byFolder = folder.map { sport(code: code, gender: nil, name: String($0)) } ?? .unknown
    return byFolder != .unknown ? byFolder : sport(code: code, gender: nil)
  }

  /// `2026-02-26` + `1:00 PM PT` → `2026-02-26T13:00:00-08:00`, with the zone's daylight time
  /// on that date. Nil when either part is missing or the zone is not a US one.
  static func startTime(date: String?, time: String?) -> String? {
    guard let date, let time else { return nil }
    let parts = time.uppercased().split(separator: " ")
    guard parts.count == 3, let (calendar, style) = zones[String(parts[2])] else { return nil }
    let clock = parts[0].split(separator: ":").compactMap { Int($0) }
    guard clock.count == 2, var hour = clock.first, (1...12).contains(hour), parts[1] == "AM" || parts[1] == "PM" else {
      return nil
    }
    hour = hour % 12 + (parts[1] == "PM" ? 12 : 0)
    let day = date.split(separator: "-").compactMap { Int($0) }
    guard day.count == 3 else { return nil }
    guard
      let instant = calendar.date(
        from: DateComponents(year: day[0], month: day[1], day: day[2], hour: hour, minute: clock[1]))
    else { return nil }
    return instant.formatted(style)
  }

  /// The US zones the web service names, each with its calendar and ISO 8601 style, made once.
  private static let zones: [String: (Calendar, Date.ISO8601FormatStyle)] = {
    let identifiers = [
      "ET": "America/New_York", "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
      "AZ": "America/Phoenix",
    ]
    return identifiers.compactMapValues { identifier in
      guard let zone = TimeZone(identifier: identifier) else { return nil }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      return (calendar, Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))
    }
  }()

  static func teamId(_ name: String) -> String { "\(StatBroadcastSource.id):team-\(GameText.slug(name))" }
}
