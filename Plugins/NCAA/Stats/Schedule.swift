import Foundation
import StatlineCore

/// A team's season schedule as either stats.ncaa.org layout lists it.
struct Schedule: Sendable, Equatable {
  struct Row: Sendable, Equatable {
    var date: String
    var opponent: String
    /// The opponent's namespaced team id, when the row links to its page.
    var opponentId: String?
    var opponentRank: Int?
    /// `@ Navy`: this team plays away.
    var away: Bool
    /// `Team<br/>@City, ST`: a neutral site, and where.
    var neutralSite: String?
    /// `W 21-8`, `L 7 - 6 (4OT)`, `-`, blank, or a word such as "Canceled".
    var result: String
    /// The namespaced id of the game's page (`ncaa:6310104`, `ncaa:game-4004130`).
    var gameId: String?
    var attendance: Int?
    /// A doubleheader's game number (`02/14/2026(2)`).
    var gameNumber: Int? = nil
  }

  /// The page's own team: namespaced id, name, and the id key used for unplayed games.
  var teamId: String
  var teamKey: String
  /// The short name rows use ("Air Force"); the full one for the team record ("Air Force Falcons").
  var teamName: String
  var teamFullName: String
  var sport: Sport
  var rows: [Row]
  var warnings: [String] = []
}

/// A schedule → one game per row (final with scores and the overtime count, scheduled with
/// none, postponed or cancelled as marked) and the teams it names.
struct ScheduleNormalizer: Normalizer {
  func normalize(_ schedule: Schedule, page: Page) throws -> Batch {
    var games: [Game] = []
    var teams = [
      Team(
        id: schedule.teamId, name: schedule.teamFullName, sport: schedule.sport,
        shortName: schedule.teamName == schedule.teamFullName ? nil : schedule.teamName)
    ]
    var warnings = schedule.warnings
    for row in schedule.rows {
      let result = Self.result(row.result)
      let us = TeamRef(id: schedule.teamId, name: schedule.teamName)
      let them = TeamRef(id: row.opponentId, name: row.opponent)
      var ours = TeamLine(team: us)
      var theirs = TeamLine(team: them, rank: row.opponentRank)
      var status = result?.status ?? .scheduled
      if result == nil, !row.result.isEmpty, row.result != "-" {
        warnings.append("\(row.date) vs \(row.opponent): result '\(row.result)' is not read; the game is unknown")
        status = .unknown
      }
      if let result, result.status == .final {
        ours.score = result.ours
        theirs.score = result.theirs
        ours.winner = result.ours > result.theirs
        theirs.winner = result.theirs > result.ours
      }
      // An unplayed doubleheader's two games differ only by their number: it ends the id (`-g2`).
      let id =
        row.gameId
        ?? NCAAIds.unplayed(team: schedule.teamKey, date: row.date, opponent: row.opponent)
        + (row.gameNumber.map { "-g\($0)" } ?? "")
      let played = result.map { Self.periodsPlayed($0, sport: schedule.sport) }
      games.append(
        Game(
          id: id, sport: schedule.sport, status: status, period: status == .final ? played?.period : nil,
          periodLabel: status == .final ? played?.label : nil, date: row.date,
          venue: row.neutralSite, attendance: row.attendance, neutralSite: row.neutralSite != nil,
          away: row.away ? ours : theirs, home: row.away ? theirs : ours))
      games[games.count - 1].gameNumber = row.gameNumber
      if let opponentId = row.opponentId, !teams.contains(where: { $0.id == opponentId }) {
        teams.append(Team(id: opponentId, name: row.opponent, sport: schedule.sport))
      }
    }
    guard !games.isEmpty else {
      throw StatlineError(
        .wrongPage, "the schedule lists no games",
        hint: "a season page always lists games; the layout may have changed")
    }
    return Batch(games: games, teams: teams, warnings: warnings)
  }

  /// A final's last period and label in its sport: regulation plus the overtimes (`Final
  /// (2OT)`), the innings a baseball result prints (`W 5-4 (10)` → the 10th, `Final (10)`),
  /// the sets a volleyball result adds up to (`W 3-1` → set 4).
  static func periodsPlayed(
    _ result: (status: GameStatus, ours: Int, theirs: Int, overtimes: Int, innings: Int?), sport: Sport
  ) -> (period: Int, label: String) {
    let profile = sport.profile
    let regulation = profile?.regulationPeriods ?? 4
    switch profile?.period {
    case .set: return (result.ours + result.theirs, "Final")
    case .inning:
      guard let innings = result.innings else { return (regulation, "Final") }
      return (innings, "Final (\(innings))")
    default:
      let overtimes = result.overtimes
      return (regulation + overtimes, overtimes > 0 ? "Final (\(overtimes)OT)" : "Final")
    }
  }

  /// `W 21-8`, `L 7 - 6 (4OT)`, `W 16-15 (1 OT)`, `W 5-4 (10)` (innings); `Canceled`, `Ppd`.
  /// Nil for blank or `-`.
  static func result(_ text: String) -> (status: GameStatus, ours: Int, theirs: Int, overtimes: Int, innings: Int?)? {
    let lowered = text.lowercased()
    if lowered.hasPrefix("cancel") { return (.cancelled, 0, 0, 0, nil) }
    if lowered.hasPrefix("ppd") || lowered.hasPrefix("postponed") { return (.postponed, 0, 0, 0, nil) }
    let compact = text.replacingOccurrences(of: " ", with: "")
    guard let first = compact.first, first == "W" || first == "L" || first == "T" else { return nil }
    let body = compact.dropFirst()
    let scorePart = body.prefix { $0 != "(" }
    let numbers = scorePart.split(separator: "-")
    guard numbers.count == 2, let ours = GameText.int(String(numbers[0])), let theirs = GameText.int(String(numbers[1]))
    else { return nil }
    var overtimes = 0
    var innings: Int?
    if let open = body.firstIndex(of: "(") {
      let inside = body[body.index(after: open)...].prefix { $0 != ")" }
      if inside.uppercased().hasSuffix("OT") { overtimes = GameText.int(String(inside.dropLast(2))) ?? 1 }
      innings = GameText.int(String(inside))
    }
    return (.final, ours, theirs, overtimes, innings)
  }
}
