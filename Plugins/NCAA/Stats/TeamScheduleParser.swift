import Foundation
import StatlineCore
import StatlineHTML

/// `/teams/{seasonTeamId}` (current layout): the rows of the "Schedule/Results" card only —
/// the team-stats ranking rows below it share the row class but are not games.
struct TeamScheduleParser: PageParser {
  func parse(_ page: Page) throws -> Schedule {
    let document = try StatsPage.document(page)
    guard
      let card = try document.first(
        xpath:
          "//div[contains(@class,'card')][div[contains(@class,'card-header')][normalize-space(.)='Schedule/Results']]")
    else {
      throw StatlineError(
        .wrongPage, "the page has no Schedule/Results card",
        hint: "this is not a team's season page, or its layout changed")
    }
    let selected = try document.first(xpath: "//select[@id='sport_list']/option[@selected]")
    guard let teamNumber = selected?.attribute("value") ?? NCAAIds.number(after: "/teams/", in: page.url) else {
      throw StatlineError(.wrongPage, "the page does not say which team it is (no selected sport, no /teams/ URL)")
    }
    let sportName = selected?.text ?? ""
    guard let sport = NCAASports.sport(name: sportName), NCAASports.isLacrosse(sport) else {
      throw StatlineError(
        .unsupported, "the schedule is for '\(sportName)', not lacrosse",
        hint: "the NCAA plugin reads men's and women's lacrosse")
    }
    let heading = try document.first(xpath: "//div[contains(@class,'card-header')][img[contains(@class,'logo_image')]]")
    let fullName = try heading?.first(xpath: "./a")?.text ?? ""
    let name = try heading?.first(xpath: "./img")?.attribute("alt") ?? fullName
    var rows: [Schedule.Row] = []
    var warnings: [String] = []
    for row in try card.select(xpath: ".//table//tr[contains(@class,'underline_rows')]") {
      let cells = try row.select(xpath: "./td")
      guard cells.count >= 3, let date = GameText.date(cells[0].text) else {
        warnings.append("a schedule row without a date is skipped: '\(row.text.prefix(60))'")
        continue
      }
      let opponentCell = cells[1]
      let link = try opponentCell.first(xpath: ".//a[starts-with(@href,'/teams/')]")
      var opponent = link?.text ?? ""
      let lines = try opponentCell.select(xpath: "./text() | ./a").map(\.text).filter { !$0.isEmpty }
      if link == nil { opponent = lines.first { $0 != "@" } ?? opponentCell.text }
      var rank: Int?
      if opponent.hasPrefix("#"), let space = opponent.firstIndex(of: " ") {
        rank = Int(opponent.dropFirst().prefix { $0.isNumber })
        opponent = String(opponent[space...]).trimmingCharacters(in: .whitespaces)
      }
      let away = opponentCell.text.hasPrefix("@")
      let note = try opponentCell.select(xpath: "./br/following-sibling::text()").map(\.text).joined(separator: " ")
      let resultLink = try cells[2].first(xpath: ".//a[starts-with(@href,'/contests/')]")
      rows.append(
        Schedule.Row(
          date: date, opponent: opponent,
          opponentId: NCAAIds.number(after: "/teams/", in: link?.attribute("href")).map(NCAAIds.seasonTeam),
          opponentRank: rank, away: away, neutralSite: Self.neutralSite(note), result: cells[2].text,
          gameId: NCAAIds.number(after: "/contests/", in: resultLink?.attribute("href")).map(NCAAIds.contest),
          attendance: cells.count > 3 ? GameText.count(cells[3].text) : nil))
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
