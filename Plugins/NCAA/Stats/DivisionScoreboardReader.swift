import Foundation
import StatlineCore
import StatlineHTML

/// The season-division scoreboard (`/season_divisions/{id}/scoreboards?game_date=…`): one table
/// headed Game Date | Teams | Score | Neutral Site | Attendance, each game two team rows and a
/// row with its "Box Score" link (`/contests/{id}/box_score`, the contest id). The first row's
/// date, per-period table (visitor's line first), neutral site and attendance span both rows.
/// The first-listed team is the visitor. The board prints no status and no clock.
enum DivisionScoreboardReader {
  static func entries(_ document: Document) -> [Scoreboard.Entry] {
    // The table headed Game Date … Score (by walking the tree as far as it: this page needs no
    // XPath at all).
    guard
      let table = document.root?.firstDescendant(
        named: "table",
        where: { table in
          let headers = table.children(named: "thead").flatMap { $0.children(named: "tr") }
            .flatMap { $0.children(named: "th") }.map(\.text)
          return headers.contains("Game Date") && headers.contains("Score")
        })
    else { return [] }
    var entries: [Scoreboard.Entry] = []
    var pending: (entry: Scoreboard.Entry, lines: [[Int]])?
    // Rows and cells by walking the tree (`./tbody/tr | ./tr`, `./td`), not an XPath query per
    // row: on a day's 150 games those queries cost more than libxml2's parse of the page.
    for row in Self.rows(of: table) {
      let cells = row.children(named: "td")
      if let box = row.firstDescendant(
        named: "a",
        where: {
          $0.attribute("href").map { FastText.contains($0, "/box_score") } == true
        })
      {
        guard var entry = pending?.entry, let lines = pending?.lines, entry.rows.count == 2 else { continue }
        entry.contestId = NCAAIds.number(after: "/contests/", in: box.attribute("href")) ?? ""
        for index in entry.rows.indices where index < lines.count { entry.rows[index].periods = lines[index] }
        if !entry.contestId.isEmpty { entries.append(entry) }
        pending = nil
        continue
      }
      // The team's name cell: neither spanning both rows nor the total, and not empty (the logo's).
      func isTotal(_ cell: Node) -> Bool { cell.attribute("class").map { FastText.contains($0, "totalcol") } == true }
      guard let nameCell = cells.first(where: { $0.attribute("rowspan") == nil && !isTotal($0) && !$0.text.isEmpty })
      else { continue }
      let total = cells.first(where: isTotal)?.text ?? ""
      if let first = cells.first, first.attribute("rowspan") == "2",
        let (date, gameNumber) = ScheduleDate.leading(first.text)
      {
        // The first team row: the game's own cells span both rows.
        var entry = Scoreboard.Entry(contestId: "", date: date, attendance: nil, state: "", rows: [])
        entry.gameNumber = gameNumber
        let spanning = cells.filter { $0.attribute("rowspan") == "2" }
        let lines =
          spanning.first { $0.firstDescendant(named: "table") != nil }.map { cell in
            cell.outermostDescendants(named: "table").flatMap { $0.descendants(named: "tr") }.map { line in
              line.children(named: "td").compactMap { GameText.int($0.text) }
            }
          } ?? []
        let trailing = spanning.suffix(2).map(\.text)
        if trailing.count == 2 {
          entry.venueNote = trailing[0].isEmpty ? nil : trailing[0]
          entry.attendance = GameText.count(trailing[1])
        }
        entry.rows.append(Self.team(nameCell, total: total, logo: Self.logo(cells)))
        pending = (entry, lines)
      } else if pending != nil {
        pending!.entry.rows.append(Self.team(nameCell, total: total, logo: Self.logo(cells)))
      }
    }
    return entries
  }

  /// The table's rows in document order: its own `<tr>`s and those of its `<tbody>`s.
  static func rows(of table: Node) -> [Node] {
    table.children.flatMap { (child: Node) -> [Node] in
      switch child.name {
      case "tr": [child]
      case "tbody": child.children(named: "tr")
      default: []
      }
    }
  }

  /// A team's name cell: its link (`/teams/{id}`) and name with the record stripped from the end
  /// (`Queens (NC) (1-3)` → `Queens (NC)`, `1-3`), or plain text for a team without an NCAA page.
  static func team(_ cell: Node, total: String, logo: String?) -> Scoreboard.Entry.Row {
    let link = cell.firstDescendant(named: "a") { $0.attribute("href")?.hasPrefix("/teams/") == true }
    var name = FastText.trimmedWhitespace(link?.text ?? cell.text)
    var record: String?
    if name.hasSuffix(")"), let open = name.lastIndex(of: "(") {
      let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
      if !inside.isEmpty, inside.allSatisfy({ $0.isNumber || $0 == "-" }), inside.contains("-") {
        record = String(inside)
        name = FastText.trimmedWhitespace(name[..<open])
      }
    }
    return Scoreboard.Entry.Row(
      teamId: NCAAIds.number(after: "/teams/", in: link?.attribute("href")), name: name, record: record, periods: [],
      total: FastText.trimmedWhitespace(total), logo: logo)
  }

  /// The source of the team's logo: the first image of the row's own cells (the game's cells,
  /// spanning both rows, hold none of a team's).
  static func logo(_ cells: [Node]) -> String? {
    cells.lazy.filter { $0.attribute("rowspan") == nil }.compactMap { $0.firstDescendant(named: "img") }.first?
      .attribute("src")
  }
}
