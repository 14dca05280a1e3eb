import Foundation
import StatlineCore
import StatlineHTML

/// The season-division scoreboard (`/season_divisions/{id}/scoreboards?game_date=…`): one table
/// headed Game Date | Teams | Score | Neutral Site | Attendance, each game two team rows and a
/// row with its "Box Score" link (`/contests/{id}/box_score`, the contest id). The first row's
/// date, per-period table (visitor's line first), neutral site and attendance span both rows.
/// The first-listed team is the visitor. The board prints no status and no clock.
enum DivisionScoreboardReader {
  static func entries(_ document: Document) throws -> [Scoreboard.Entry] {
    guard
      let table = try document.first(
        xpath: "//table[thead/tr/th[normalize-space()='Game Date'] and thead/tr/th[normalize-space()='Score']]")
    else { return [] }
    var entries: [Scoreboard.Entry] = []
    var pending: (entry: Scoreboard.Entry, lines: [[Int]])?
    for row in try table.select(xpath: "./tbody/tr | ./tr") {
      let cells = try row.select(xpath: "./td")
      if let box = try row.first(xpath: ".//a[contains(@href,'/box_score')]") {
        guard var entry = pending?.entry, let lines = pending?.lines, entry.rows.count == 2 else { continue }
        entry.contestId = NCAAIds.number(after: "/contests/", in: box.attribute("href")) ?? ""
        for index in entry.rows.indices where index < lines.count { entry.rows[index].periods = lines[index] }
        if !entry.contestId.isEmpty { entries.append(entry) }
        pending = nil
        continue
      }
      // The team's name cell: neither spanning both rows nor the total, and not empty (the logo's).
      guard
        let nameCell = try row.first(
          xpath: "./td[not(@rowspan)][not(contains(@class,'totalcol'))][normalize-space(.) != '']")
      else { continue }
      let total = try row.first(xpath: "./td[contains(@class,'totalcol')]")?.text ?? ""
      if let first = cells.first, first.attribute("rowspan") == "2",
        let date = GameText.date(String(first.text.prefix(10)))
      {
        // The first team row: the game's own cells span both rows.
        var entry = Scoreboard.Entry(contestId: "", date: date, attendance: nil, state: "", rows: [])
        let spanning = cells.filter { $0.attribute("rowspan") == "2" }
        let lines =
          try spanning.first { (try? $0.first(xpath: ".//table")) != nil }.map { cell in
            try cell.select(xpath: ".//table//tr").map { line in
              try line.select(xpath: "./td").compactMap { GameText.int($0.text) }
            }
          } ?? []
        let trailing = spanning.suffix(2).map(\.text)
        if trailing.count == 2 {
          entry.venueNote = trailing[0].isEmpty ? nil : trailing[0]
          entry.attendance = GameText.count(trailing[1])
        }
        entry.rows.append(try Self.team(nameCell, total: total))
        pending = (entry, lines)
      } else if pending != nil {
        pending!.entry.rows.append(try Self.team(nameCell, total: total))
      }
    }
    return entries
  }

  /// A team's name cell: its link (`/teams/{id}`) and name with the record stripped from the end
  /// (`Queens (NC) (1-3)` → `Queens (NC)`, `1-3`), or plain text for a team without an NCAA page.
  static func team(_ cell: Node, total: String) throws -> Scoreboard.Entry.Row {
    let link = try cell.first(xpath: ".//a[starts-with(@href,'/teams/')]")
    var name = (link?.text ?? cell.text).trimmingCharacters(in: .whitespacesAndNewlines)
    var record: String?
    if name.hasSuffix(")"), let open = name.lastIndex(of: "(") {
      let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
      if !inside.isEmpty, inside.allSatisfy({ $0.isNumber || $0 == "-" }), inside.contains("-") {
        record = String(inside)
        name = name[..<open].trimmingCharacters(in: .whitespaces)
      }
    }
    return Scoreboard.Entry.Row(
      teamId: NCAAIds.number(after: "/teams/", in: link?.attribute("href")), name: name, record: record, periods: [],
      total: total.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
