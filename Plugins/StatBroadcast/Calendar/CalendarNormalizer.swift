import Foundation
import StatlineCore

/// Calendar rows → games. The event text reads "Away at Home", "A vs B" before a game and
/// "A 14, B 6 - FINAL" after it, where the first-named team is the winner, not the visitor;
/// sides then follow the listed order and the batch says so in a warning.
struct CalendarNormalizer: Normalizer {
  static let winnerFirst =
    "StatBroadcast calendars list the winner first: away/home of a finished game follow the listed order, not the venue"

  func normalize(_ calendar: CalendarPage, page: Page) throws -> Batch {
    var batch = Batch()
    if calendar.unlinked > 0 {
      batch.warnings.append(
        "\(calendar.unlinked) event row(s) have no statb.us stats link, so no event id: left out")
    }
    for row in calendar.rows {
      let event = try CalendarEvent(row.event)
      var game = Game(
        id: "\(StatBroadcastSource.id):\(row.eventId)",
        sport: StatCrewSportCode.sport(row.sportCode) ?? .unknown,
        status: event.status, period: event.period, periodLabel: event.marker, date: Self.date(row.date),
        venue: row.location.isEmpty ? nil : row.location,
        away: TeamLine(team: TeamRef(name: event.first), score: event.firstScore),
        home: TeamLine(team: TeamRef(name: event.second), score: event.secondScore))
      if event.status == .final, let away = event.firstScore, let home = event.secondScore, away != home {
        game.away.winner = away > home
        game.home.winner = home > away
      }
      if event.firstScore != nil, !batch.warnings.contains(Self.winnerFirst) { batch.warnings.append(Self.winnerFirst) }
      batch.games.append(game)
    }
    return batch
  }

  /// `MM-DD-YY` → `YYYY-MM-DD`.
  static func date(_ text: String) -> String? {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, (1...12).contains(parts[0]), (1...31).contains(parts[1]) else { return nil }
    return String(format: "%04d-%02d-%02d", parts[2] < 100 ? 2000 + parts[2] : parts[2], parts[0], parts[1])
  }
}

/// The event cell: two teams, scores when shown, and the marker after " - ".
struct CalendarEvent: Equatable {
  var first: String
  var second: String
  var firstScore: Int?
  var secondScore: Int?
  var marker: String?
  var status: GameStatus
  var period: Int?

  static let scored = try! NSRegularExpression(pattern: #"^(.+?) (\d+), (.+?) (\d+)$"#)
  static let versus = try! NSRegularExpression(pattern: #"^(.+?) (?:at|vs\.?|@) (.+)$"#)

  init(_ text: String) throws(StatlineError) {
    var body = text.trimmingCharacters(in: .whitespaces)
    // A trailing note: "(Game #2)", "(Big Ten Opener)", "(Weather)".
    if body.hasSuffix(")"), let open = body.range(of: " (", options: .backwards) {
      body = String(body[..<open.lowerBound])
    }
    var marker: String?
    if let dash = body.range(of: " - ", options: .backwards) {
      marker = String(body[dash.upperBound...]).trimmingCharacters(in: .whitespaces)
      body = String(body[..<dash.lowerBound])
    }
    let range = NSRange(body.startIndex..., in: body)
    func group(_ match: NSTextCheckingResult, _ index: Int) -> String {
      String(body[Range(match.range(at: index), in: body)!])
    }
    if let match = Self.scored.firstMatch(in: body, range: range) {
      (first, firstScore, second, secondScore) = (
        group(match, 1), Int(group(match, 2)), group(match, 3), Int(group(match, 4))
      )
    } else if let match = Self.versus.firstMatch(in: body, range: range) {
      (first, second) = (group(match, 1), group(match, 2))
    } else {
      throw StatlineError(
        .wrongPage, "the event text '\(text)' names no two teams",
        hint: "expected 'Away at Home', 'A vs B' or 'A 14, B 6 - FINAL'")
    }
    self.marker = marker
    (status, period) = Self.status(marker, scored: firstScore != nil)
  }

  /// Final and the off-states by name; a period marker on a scored game is live; a scored game
  /// with a marker the calendar does not explain is `unknown` (its game feed tells), and a game
  /// with neither score nor marker is scheduled.
  static func status(_ marker: String?, scored: Bool) -> (GameStatus, Int?) {
    guard let marker else { return (scored ? .unknown : .scheduled, nil) }
    let upper = marker.uppercased()
    switch upper {
    case "FINAL", "F": return (.final, nil)
    case "POSTPONED", "PPD": return (.postponed, nil)
    case "CANCELLED", "CANCELED": return (.cancelled, nil)
    case "SUSPENDED": return (.suspended, nil)
    default: break
    }
    guard scored else { return (.unknown, nil) }
    let periods: [String: Int] = [
      "1ST": 1, "Q1": 1, "2ND": 2, "Q2": 2, "HALF": 2, "HALFTIME": 2, "3RD": 3, "Q3": 3, "4TH": 4, "Q4": 4, "OT": 5,
      "2OT": 6, "3OT": 7,
    ]
    let key = upper.replacingOccurrences(of: " QTR", with: "").replacingOccurrences(of: " QUARTER", with: "")
    if let period = periods[key] { return (.live, period) }
    return (.unknown, nil)
  }
}
