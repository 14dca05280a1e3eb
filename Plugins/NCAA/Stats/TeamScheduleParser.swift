import Foundation
import StatlineCore
import StatlineHTML

/// `/teams/{seasonTeamId}` (current layout): the rows of the "Schedule/Results" card only —
/// the team-stats ranking rows below it share the row class but are not games — with its
/// columns mapped from the card table's header row (`ScheduleColumns`).
struct TeamScheduleParser: PageParser {
  func parse(_ page: Page) throws -> Schedule {
    var reader = TeamScheduleReader()
    try HTMLStream.read(page.body, into: &reader, url: page.url)
    guard let scheduleRows = reader.scheduleRows else {
      throw StatlineError(
        .wrongPage, "the page has no Schedule/Results card",
        hint: "this is not a team's season page, or its layout changed")
    }
    let selected = reader.sport.option
    guard let teamNumber = selected?.attribute("value") ?? NCAAIds.number(after: "/teams/", in: page.url) else {
      throw StatlineError(.wrongPage, "the page does not say which team it is (no selected sport, no /teams/ URL)")
    }
    let sportName = selected?.text ?? ""
    guard let sport = NCAASports.sport(name: sportName) else {
      throw StatlineError(
        .unsupported, "the schedule is for '\(sportName)', a sport Statline does not know",
        hint: "the NCAA plugin reads the schedules of every sport it has a code for")
    }
    // The team's names from whatever the heading holds: the logo's alt (the short name), the
    // athletics link's text (the full one), else the heading's own words before its record.
    let heading = reader.heading
    let athletics = heading?.children(named: "a").first { $0.attribute("target") == "ATHLETICS_URL" }
    let headingText = (heading?.text ?? "").split(separator: "(").first.map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let fullName = athletics?.text ?? heading?.children(named: "a").first?.text ?? headingText ?? ""
    let alt = heading?.children(named: "img").compactMap { $0.attribute("alt") }.first { !$0.isEmpty }
    let name = alt ?? fullName
    guard !name.isEmpty else {
      throw StatlineError(
        .wrongPage, "the page does not name its team (no card heading with a logo, an athletics link or a name)",
        hint: "the layout changed: the team's heading is no longer found")
    }
    let columns = try ScheduleColumns.read(ScheduleColumns.headers(in: scheduleRows), table: "Schedule/Results")
    var rows: [Schedule.Row] = []
    var warnings = columns.unknownWarning.map { [$0] } ?? []
    for row in scheduleRows {
      let cells = row.children(named: "td")
      // The header row, and the empty spacer rows between games, are no games.
      if cells.isEmpty || row.text.isEmpty { continue }
      guard cells.count > columns.last, let (date, gameNumber) = ScheduleDate.read(cells[columns.date].text) else {
        warnings.append("a schedule row without a date is skipped: '\(row.text.prefix(60))'")
        continue
      }
      let opponentCell = cells[columns.opponent]
      let link = opponentCell.firstDescendant(named: "a") { $0.attribute("href")?.hasPrefix("/teams/") == true }
      var opponent = link?.text ?? ""
      let lines = StatsPage.lines(of: opponentCell)
      if link == nil { opponent = lines.first { $0 != "@" } ?? opponentCell.text }
      var rank: Int?
      if opponent.hasPrefix("#"), let space = opponent.firstIndex(of: " ") {
        rank = Int(opponent.dropFirst().prefix { $0.isNumber })
        opponent = String(opponent[space...]).trimmingCharacters(in: .whitespaces)
      }
      let away = opponentCell.text.hasPrefix("@")
      // The text after the line break (`./br/following-sibling::text()`).
      let children = opponentCell.childNodes
      let lineBreak = children.firstIndex { if case .element(let element) = $0 { element.name == "br" } else { false } }
      let note = children.suffix(from: lineBreak.map { $0 + 1 } ?? children.endIndex).compactMap { child -> String? in
        if case .text(let text) = child { text } else { nil }
      }.joined(separator: " ")
      let resultLink = cells[columns.result].firstDescendant(named: "a") {
        $0.attribute("href")?.hasPrefix("/contests/") == true
      }
      rows.append(
        Schedule.Row(
          date: date, opponent: opponent,
          opponentId: NCAAIds.number(after: "/teams/", in: link?.attribute("href")).map(NCAAIds.seasonTeam),
          opponentRank: rank, away: away, neutralSite: Self.neutralSite(note), result: cells[columns.result].text,
          gameId: NCAAIds.number(after: "/contests/", in: resultLink?.attribute("href")).map(NCAAIds.contest),
          attendance: columns.attendance.flatMap { $0 < cells.count ? GameText.count(cells[$0].text) : nil },
          gameNumber: gameNumber))
    }
    return Schedule(
      teamId: NCAAIds.seasonTeam(teamNumber), teamKey: "team-\(teamNumber)", teamName: name,
      teamFullName: fullName.isEmpty ? name : fullName, sport: sport, rows: rows,
      warnings: warnings)
  }

  /// "@Jacksonville, FL (2025 ASUN MLA Championship)" → "Jacksonville, FL"; a note that is no
  /// place ("2025 ASUN MLA Championship") → nil.
  static func neutralSite(_ note: String) -> String? {
    let trimmed = note.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("@") else { return nil }
    let place = trimmed.dropFirst().prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)
    return place.isEmpty ? nil : place
  }
}
