import Foundation
import StatlineCore
import StatlineHTML

/// `/team/{orgId}/{sportYearCtlId}` (legacy layout, STRUCTURE.md §2b): the `table.mytable`
/// titled "Schedule/Results". Opponents read `@ Navy` (away), `Navy` (home) or
/// `Dartmouth<br/>@Denver, CO` (neutral); results `W 7 - 6 (4OT)`, `-` when unplayed.
struct LegacyScheduleParser: PageParser {
  func parse(_ page: Page) throws -> Schedule {
    var reader = LegacyScheduleReader()
    try HTMLStream.read(page.body, into: &reader, url: page.url)
    guard let table = reader.schedule else {
      throw StatlineError(
        .wrongPage, "the page has no Schedule/Results table (table.mytable)",
        hint: "this is not a legacy team page, or its layout changed")
    }
    let org = NCAAIds.number(after: "/team/", in: page.url) ?? NCAAIds.number(after: "/team/", in: reader.rosterLink)
    guard let org else {
      throw StatlineError(
        .wrongPage, "the page does not say which team it is (no /team/{org} URL or roster link)",
        hint: "replay it with --url https://stats.ncaa.org/team/{orgId}/{sportYearCtlId}")
    }
    let sportName = reader.sport.option?.text ?? ""
    guard let sport = NCAASports.sport(name: sportName) else {
      throw StatlineError(
        .unsupported, "the schedule is for '\(sportName)', a sport Statline does not know",
        hint: "the NCAA plugin reads the schedules of every sport it has a code for")
    }
    let heading = reader.heading?.text ?? ""
    let fullName = heading.split(separator: "(").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? heading
    let tableRows = StatsPage.rows(of: table)
    let columns = try ScheduleColumns.read(ScheduleColumns.headers(in: tableRows), table: "Schedule/Results")
    var rows: [Schedule.Row] = []
    var warnings = columns.unknownWarning.map { [$0] } ?? []
    for row in tableRows {
      let cells = row.children(named: "td")
      // The title and header rows, and empty spacer rows, are no games.
      if cells.count <= 1 || row.text.isEmpty { continue }
      guard cells.count > columns.last, let (date, gameNumber) = ScheduleDate.read(cells[columns.date].text) else {
        warnings.append("a schedule row without a date is skipped: '\(row.text.prefix(60))'")
        continue
      }
      let parts = StatsPage.lines(of: cells[columns.opponent])
      var opponent = parts.first ?? ""
      let neutral = parts.dropFirst().first { $0.hasPrefix("@") }
      let away = opponent.hasPrefix("@")
      if away { opponent = opponent.dropFirst().trimmingCharacters(in: .whitespaces) }
      let link = cells[columns.opponent].firstDescendant(named: "a") {
        $0.attribute("href")?.hasPrefix("/team/") == true
      }
      let result = cells[columns.result].firstDescendant(named: "a") {
        $0.attribute("href")?.contains("/game/") == true
      }
      rows.append(
        Schedule.Row(
          date: date, opponent: opponent,
          opponentId: NCAAIds.number(after: "/team/", in: link?.attribute("href")).map(NCAAIds.org), away: away,
          neutralSite: neutral.map { $0.dropFirst().trimmingCharacters(in: .whitespaces) },
          result: cells[columns.result].text,
          gameId: NCAAIds.number(after: "/game/index/", in: result?.attribute("href"))
            ?? NCAAIds.number(after: "/game/box_score/", in: result?.attribute("href")),
          attendance: columns.attendance.flatMap { $0 < cells.count ? GameText.count(cells[$0].text) : nil },
          gameNumber: gameNumber))
      if let id = rows[rows.count - 1].gameId { rows[rows.count - 1].gameId = NCAAIds.legacyGame(id) }
    }
    return Schedule(
      teamId: NCAAIds.org(org), teamKey: "org-\(org)", teamName: fullName, teamFullName: fullName, sport: sport,
      rows: rows, warnings: warnings)
  }
}
