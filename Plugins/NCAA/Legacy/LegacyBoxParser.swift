import Foundation
import StatlineCore
import StatlineHTML

/// `/game/box_score/{id}` (legacy layout): after the linescore and the game facts, one
/// `table.mytable` per team, titled by `tr.heading`, headed by `tr.grey_heading` (`th` or
/// `td` cells) with a name column; data rows are `tr.smtext` with plain cells, each number in a
/// `<div>` with whitespace around it (older pages: `td.smtext`). The `Totals` row is the team's
/// totals.
struct LegacyBoxParser: PageParser {
  func parse(_ page: Page) throws -> ContestBoxLegacy {
    let document = try StatsPage.document(page)
    let header = try LegacyHeader.read(document, page: page)
    var teams: [ContestBox.TeamTables] = []
    var warnings: [String] = []
    let tables = try document.select(
      xpath:
        "//table[contains(@class,'mytable')][tr[contains(@class,'grey_heading')] or tbody/tr[contains(@class,'grey_heading')]]"
    )
    // A player table has a name column; the linescore (also headed grey) has none.
    let playerTables = try tables.compactMap { table -> (table: Node, headers: [String])? in
      let headers =
        try table.first(xpath: ".//tr[contains(@class,'grey_heading')]")?.select(xpath: "./th | ./td").map(\.words)
        ?? []
      return headers.contains(where: { BoxColumns.column($0) == .name }) ? (table, headers) : nil
    }
    // The target's sport, else the one the page's links state (legacy pages name it nowhere else).
    let linked = page.sport == nil ? try PageLinkSport.stated(in: document) : nil
    let (family, sport) = try BoxColumns.sport(
      of: Set(playerTables.flatMap(\.headers)), periods: ContestHeader.numberedPeriods(header.periodLabels),
      hint: page.sport ?? linked?.sport, warnings: &warnings)
    if let linked, linked.sport == sport { warnings.append(linked.warning) }
    for (table, headers) in playerTables {
      // Rows are found by their cells, not by class: real pages put `smtext` on the row, others
      // on cells.
      let title =
        try table.first(xpath: ".//tr[contains(@class,'heading') and not(contains(@class,'grey_heading'))]")?.text ?? ""
      let columns = BoxColumns.columns(headers, family: family, table: title, warnings: &warnings)
      try BoxColumns.checkPlayerTable(
        columns, family: family, headers: headers, table: title.isEmpty ? "a player table" : title)
      var tables = ContestBox.TeamTables()
      for row in try table.select(xpath: ".//tr[not(contains(@class,'heading'))][td]") {
        var line = BoxColumns.line(row.children(named: "td"), columns: columns)
        if line.name.lowercased() == "totals" {
          line.stats[StatKey.secondsPlayed] = nil
          tables.totals = line.stats
        } else if line.name.uppercased() != "TEAM", !line.name.isEmpty {
          tables.players.append(line)
        }
      }
      teams.append(tables)
    }
    guard teams.count == 2 else {
      throw StatlineError(
        .wrongPage, "the page has \(teams.count) player tables, not one per team",
        hint: "the box score may be cut short, or the layout changed")
    }
    return ContestBoxLegacy(header: header, sport: sport, teams: teams, warnings: warnings)
  }
}

struct ContestBoxLegacy: Sendable, Equatable {
  var header: LegacyHeader
  var sport: Sport
  /// Visitor first, as the page lists them.
  var teams: [ContestBox.TeamTables]
  var warnings: [String]
}

struct LegacyBoxNormalizer: Normalizer {
  func normalize(_ box: ContestBoxLegacy, page: Page) throws -> Batch {
    let game = box.header.game(sport: box.sport)
    return Batch(
      games: [game], teams: box.header.teams(sport: box.sport),
      boxScores: [
        BoxScore(gameId: game.id, away: BoxColumns.teamBox(box.teams[0]), home: BoxColumns.teamBox(box.teams[1]))
      ],
      warnings: box.warnings)
  }
}
