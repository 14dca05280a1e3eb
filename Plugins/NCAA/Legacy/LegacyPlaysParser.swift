import Foundation
import StatlineCore
import StatlineHTML

/// `/game/play_by_play/{id}` (legacy layout): one `table.mytable` (or `mytbl`) per period headed
/// Time | Visitor | Score | Home, its columns read by their header text (`PlayColumns`; the
/// running score is kept on every play), and period-end rows spanning the table ("End of 1st
/// Quarter").
struct LegacyPlaysParser: PageParser {
  func parse(_ page: Page) throws -> PlaysPage<LegacyHeader> {
    let document = try StatsPage.document(page)
    let header = try LegacyHeader.read(document, page: page)
    let tables = try document.select(
      xpath: "//table[contains(@class,'mytable') or contains(@class,'mytbl')]"
        + "[.//tr[contains(@class,'grey_heading')][contains(normalize-space(.),'Time')]]")
    guard !tables.isEmpty else {
      throw StatlineError(
        .wrongPage, "the page has no period tables (Time | Visitor | Score | Home)",
        hint: "the play-by-play may not have started, or the layout changed")
    }
    var rows: [PlayRow] = []
    for (index, table) in tables.enumerated() {
      let period = index + 1
      let headers =
        try table.first(xpath: ".//tr[contains(@class,'grey_heading')]")?.select(xpath: "./th | ./td").map(\.words)
        ?? []
      guard
        let columns = PlayColumns.read(headers, visitor: [header.visitor.name], home: [header.home.name])
      else {
        throw StatlineError(
          .wrongPage,
          "period table \(period) is not headed Score and the two teams (headers: \(headers.joined(separator: ", ")))",
          hint: "the layout changed: the table's header row no longer names its columns")
      }
      for row in try table.select(xpath: ".//tr[not(contains(@class,'heading'))][td]") {
        let cells = try row.select(xpath: "./td")
        if cells.count == 1 {
          rows.append(PlayRow(period: period, clock: nil, side: nil, text: cells[0].text))
          continue
        }
        guard cells.count > columns.last else { continue }
        var play = PlayRow(
          period: period, clock: columns.time.map { cells[$0].text }, awayText: cells[columns.away].text,
          homeText: cells[columns.home].text)
        (play.away, play.home) = PlayRow.score(cells[columns.score].text) ?? (nil, nil)
        rows.append(play)
      }
    }
    var plays = PlaysPage(header: header, rows: rows)
    plays.linkedSport = page.sport == nil ? try PageLinkSport.stated(in: document) : nil
    return plays
  }
}
