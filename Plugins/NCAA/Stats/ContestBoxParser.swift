import Foundation
import StatlineCore
import StatlineHTML

/// A contest's individual-stats (or box-score) tab: the header and one table per team and
/// stat category (lacrosse's field players and goalies; baseball's batting, pitching and
/// fielding, a player's lines merged by the player's id).
struct ContestBox: Sendable, Equatable {
  struct Line: Sendable, Equatable {
    var playerId: String?
    var name: String
    var number: String?
    var position: String?
    var stats: [String: Int] = [:]
    /// Numbers with a half (volleyball's points) that a whole-number key cannot hold.
    var halves: [String] = []
  }

  struct TeamTables: Sendable, Equatable {
    var seasonTeamId: String?
    var players: [Line] = []
    var totals: [String: Int] = [:]
  }

  var header: ContestHeader
  var sport: Sport
  var teams: [TeamTables]
  var warnings: [String]
}

/// Reads `/contests/{id}/individual_stats` and `/contests/{id}/box_score` (current layout).
/// Rows marked `tbody_border_top`, or named `TEAM`, `Totals` or for the team as the header
/// prints it, are the `TEAM` row (team-credited stats, already in the total) and the total row:
/// they become the team's totals, never players.
struct ContestBoxParser: PageParser {
  func parse(_ page: Page) throws -> ContestBox {
    var reader = ContestBoxReader()
    try HTMLStream.read(page.body, into: &reader, url: page.url)
    let header = try ContestHeader.read(table: reader.header, page: page)
    let tables = reader.tables
    guard !tables.isEmpty else {
      if reader.sawSummaryTables { return try Self.summary(header, page: page) }
      throw StatlineError(
        .wrongPage, "the contest page has no stat tables (table#competitor_…_data_table)",
        hint: "the tab may be one without player stats (team stats, officials), or the layout changed")
    }
    // The tables' headers first: the sport's words say how each column reads.
    let headed = tables.map { table, _ in
      (table.children(named: "thead").first?.children(named: "tr").first?.children(named: "th") ?? []).map(\.words)
    }
    var warnings: [String] = []
    let (family, sport) = try BoxColumns.sport(
      of: Set(headed.joined()), periods: header.numberedPeriods, hint: page.sport, warnings: &warnings)
    // Per competitor, in page order; rows are added in place (a copy out of a dictionary per
    // row would copy every line read so far).
    var teams: [ContestBox.TeamTables] = []
    var slots: [String: Int] = [:]
    // Per team: its tables' columns (one of them must hold a name and the sport's scoring
    // column), and what its tables were headed (for the error when none has).
    var columnsBySlot: [Int: [[BoxColumns.Column]]] = [:]
    var headings: [Int: [String]] = [:]
    // The summary rows are known by their class and, should the class go, by what they are
    // named: TEAM, and the total row named for the team (as the header prints it) or Totals.
    let summaryNames = Set(
      (["TEAM", "TOTALS", "TOTAL"] + [header.visitor, header.home].flatMap { [$0.shortName, $0.fullName ?? ""] })
        .filter { !$0.isEmpty }.map { $0.uppercased() })
    for ((table, teamLink), headers) in zip(tables, headed) {
      let tableId = table.attribute("id") ?? ""
      let competitor = NCAAIds.number(after: "competitor_", in: tableId) ?? tableId
      let slot: Int
      if let known = slots[competitor] {
        slot = known
      } else {
        slot = teams.count
        slots[competitor] = slot
        teams.append(
          ContestBox.TeamTables(seasonTeamId: NCAAIds.number(after: "/teams/", in: teamLink)))
      }
      let columns = BoxColumns.columns(headers, family: family, table: "table \(tableId)", warnings: &warnings)
      columnsBySlot[slot, default: []].append(columns)
      headings[slot, default: []].append("table \(tableId): \(headers.prefix(20).joined(separator: ", "))")
      for row in StatsPage.rows(of: table) {
        let cells = row.children(named: "td")
        guard !cells.isEmpty else { continue }
        var line = BoxColumns.line(cells, columns: columns)
        let summary =
          cells.first?.attribute("class").map { FastText.offset(of: "tbody_border_top", in: $0) != nil } ?? false
          || summaryNames.contains(line.name.uppercased())
        if summary {
          // The TEAM row's team-credited stats are already in the total row.
          // Minutes add up over the roster (600:00), so a team has none.
          line.stats[StatKey.secondsPlayed] = nil
          if line.name.uppercased() != "TEAM" { teams[slot].totals.merge(line.stats) { $1 } }
          continue
        }
        guard !line.name.isEmpty else {
          warnings.append("table \(tableId): a row without a player name is skipped")
          continue
        }
        if !line.halves.isEmpty {
          warnings.append(
            "table \(tableId): \(line.name)'s points with a half (a block assist counts half) left out: "
              + line.halves.joined(separator: ", "))
        }
        if let index = teams[slot].players.firstIndex(where: { $0.playerId != nil && $0.playerId == line.playerId }) {
          teams[slot].players[index].stats.merge(line.stats) { $1 }
          teams[slot].players[index].position = teams[slot].players[index].position ?? line.position
        } else {
          teams[slot].players.append(line)
        }
      }
    }
    for slot in teams.indices
    where !(columnsBySlot[slot] ?? []).contains(where: { BoxColumns.readsPlayers($0, family: family) }) {
      throw StatlineError(
        .wrongPage,
        "no stat table of team \(slot + 1) has \(BoxColumns.requirement(family)) "
          + "(\((headings[slot] ?? []).joined(separator: "; ")))",
        hint: "the layout changed: the tables' header rows no longer name the columns the plugin needs")
    }
    return ContestBox(header: header, sport: sport, teams: teams, warnings: warnings)
  }

  /// Newer pages' box_score tab (the tab every scoreboard row links to): a scoring summary, game
  /// leaders and team stats, no player tables. It still shows the game — both teams with their
  /// records, the line score, date, venue and attendance — so the game is read from its header
  /// and the box score named as found on the `individual_stats` tab; the box score is never
  /// guessed from the team-stats card. The sport is the target's, else the one the page's links
  /// state, else unknown (said).
  static func summary(_ header: ContestHeader, page: Page) throws -> ContestBox {
    var warnings = [
      "the page is the contest's summary tab (scoring summary, game leaders, team stats): the game is read from its "
        + "header; the box score is on https://stats.ncaa.org/contests/\(header.contestId)/individual_stats"
    ]
    var sport = page.sport ?? .unknown
    if page.sport == nil {
      if let linked = try PageLinkSport.stated(in: try StatsPage.document(page)) {
        sport = linked.sport
        warnings.append(linked.warning)
      } else {
        warnings.append("the summary tab names no sport and its target none: the game's sport is unknown")
      }
    }
    if header.status(sport: sport).status == .final {
      let winner = header.visitor.winner ? header.visitor.shortName : header.home.shortName
      warnings.append(
        "the header marks \(winner) the winner beside both totals: the game is read as final")
    }
    return ContestBox(header: header, sport: sport, teams: [], warnings: warnings)
  }
}

/// A contest box → the game (from the header), both teams and the box score. Each table is
/// matched to its side by the team link in its card; without links, tables run visitor first.
struct ContestBoxNormalizer: Normalizer {
  func normalize(_ box: ContestBox, page: Page) throws -> Batch {
    let game = box.header.game(sport: box.sport)
    // The summary tab: its game and teams, no box score.
    if box.teams.isEmpty {
      return Batch(games: [game], teams: box.header.teams(sport: box.sport), warnings: box.warnings)
    }
    func tables(for side: Side, index: Int) -> ContestBox.TeamTables? {
      let id = side == .home ? box.header.home.seasonTeamId : box.header.visitor.seasonTeamId
      if let id, let match = box.teams.first(where: { $0.seasonTeamId == id }) { return match }
      return box.teams.count == 2 ? box.teams[index] : nil
    }
    guard let away = tables(for: .away, index: 0), let home = tables(for: .home, index: 1) else {
      throw StatlineError(
        .wrongPage, "the stat tables belong to \(box.teams.count) teams, not the header's two",
        hint: "the page may be cut short; fetch it again")
    }
    return Batch(
      games: [game], teams: box.header.teams(sport: box.sport),
      boxScores: [BoxScore(gameId: game.id, away: BoxColumns.teamBox(away), home: BoxColumns.teamBox(home))],
      warnings: box.warnings)
  }
}
