import Foundation
import StatlineCore
import StatlineHTML

/// The header of a game page, whichever layout: the game and its teams.
protocol GameHeader: Sendable, Equatable {
  func game(sport: Sport) -> Game
  func teams(sport: Sport) -> [Team]
}

extension ContestHeader: GameHeader {}
extension LegacyHeader: GameHeader {}

/// A play-by-play page: its header, and the rows of every period.
struct PlaysPage<Header: GameHeader>: Sendable, Equatable {
  var header: Header
  var rows: [PlayRow]
  var warnings: [String] = []
  /// The sport the page's links state (legacy pages, whose target names none).
  var linkedSport: PageLinkSport.Stated? = nil
}

/// `/contests/{id}/play_by_play` (current layout, STRUCTURE.md §2a): one card per period, each
/// a table headed Time | visitor | Score | home (baseball's and volleyball's without Time),
/// its columns read by their header text
/// (`PlayColumns`). The cards are named by the site ("1st Period", "1st Quarter", "1st Half",
/// "OT"), so a period is any table with such a header, numbered in page order, its card's header
/// kept as the plays' period label. The side that acted is the non-empty text cell; the score
/// cell is the running score; period events span the other cells. Football's page has drives
/// instead (`FootballDrives`).
struct ContestPlaysParser: PageParser {
  func parse(_ page: Page) throws -> PlaysPage<ContestHeader> {
    let document = try StatsPage.document(page)
    let header = try ContestHeader.read(document, page: page)
    let visitor = [header.visitor.shortName, header.visitor.fullName ?? ""]
    let home = [header.home.shortName, header.home.fullName ?? ""]
    let tables = (document.root?.descendants(named: "table") ?? []).compactMap { table in
      Self.columns(of: table, visitor: visitor, home: home).map { (table, $0) }
    }
    guard !tables.isEmpty else {
      // Football's play-by-play is drives, not period tables.
      if let drives = try FootballDrives.read(document, header: header), !drives.rows.isEmpty {
        return PlaysPage(header: header, rows: drives.rows, warnings: drives.warnings)
      }
      throw StatlineError(
        .wrongPage,
        "the page has no period tables (a card whose table is Time | visitor | Score | home) and no drives (div.drives)",
        hint: "the play-by-play may not have started, or the layout changed")
    }
    var rows: [PlayRow] = []
    for (index, (table, columns)) in tables.enumerated() {
      let period = index + 1
      let title = StatsPage.cardHeaders(of: table).first?.words
      let label = title?.isEmpty == false ? title : nil
      for row in StatsPage.rows(of: table) {
        let cells = row.children(named: "td")
        if cells.count == 2, columns.time != nil, let clock = cells.first?.text {
          // A period event spans the other cells.
          rows.append(PlayRow(period: period, periodLabel: label, clock: clock, side: nil, text: cells[1].text))
          continue
        }
        if cells.count == 1, columns.time == nil {
          // Without a time column, a period event is one cell across the table.
          rows.append(PlayRow(period: period, periodLabel: label, clock: nil, side: nil, text: cells[0].text))
          continue
        }
        guard cells.count > columns.last else { continue }
        var play = PlayRow(
          period: period, periodLabel: label, clock: columns.time.map { cells[$0].text },
          awayText: cells[columns.away].text, homeText: cells[columns.home].text)
        (play.away, play.home) = PlayRow.score(cells[columns.score].text) ?? (nil, nil)
        rows.append(play)
      }
    }
    return PlaysPage(header: header, rows: rows)
  }

  /// A period table's columns, from its header row (in `thead`, or its first row of `th`
  /// cells): Time, Score and the two teams; nil for any other table.
  static func columns(of table: Node, visitor: [String], home: [String]) -> PlayColumns? {
    let head =
      table.children(named: "thead").first?.children(named: "tr").first
      ?? StatsPage.rows(of: table).first { !$0.children(named: "th").isEmpty }
    guard let cells = head?.children.filter({ $0.name == "th" || $0.name == "td" }) else { return nil }
    return PlayColumns.read(cells.map(\.words), visitor: visitor, home: home)
  }
}

/// The header's game (the final score comes from the header, never from the last row's
/// running score, which is not monotonic) and the typed plays; the sport from the play texts:
/// lacrosse and basketball by their grammars, the other sports by their words (or the target's
/// sport) and their running score (`ScoredPlayRows`).
struct PlaysPageNormalizer<Header: GameHeader>: Normalizer {
  func normalize(_ plays: PlaysPage<Header>, page: Page) throws -> Batch {
    let texts = plays.rows.map(\.text)
    guard let sport = PlayRows.lacrosse(of: texts) else {
      let other = PlayRows.otherSport(of: texts)
      let labels = plays.rows.compactMap(\.periodLabel)
      var warnings = plays.warnings
      let linked = plays.linkedSport
      if other == "basketball" {
        var basketball = BasketballPlayRows.sport(periodLabels: labels)
        // The target's sport, else the links' (read only when the target names none).
        if basketball == .unknown, let stated = page.sport ?? linked?.sport,
          stated == .basketballMen || stated == .basketballWomen
        {
          basketball = stated
          if page.sport == nil, let linked { warnings.append(linked.warning) }
        }
        let game = plays.header.game(sport: basketball)
        return Batch(
          games: [game], teams: plays.header.teams(sport: basketball),
          plays: BasketballPlayRows.plays(plays.rows, gameId: game.id), warnings: warnings)
      }
      let hint = page.sport ?? linked?.sport
      guard let scored = try ScoredPlayRows.sport(words: other, periodLabels: labels, hint: hint) else {
        throw PlayRows.refusal(texts, other: other)
      }
      if page.sport == nil, let linked, linked.sport == scored { warnings.append(linked.warning) }
      let game = plays.header.game(sport: scored)
      return Batch(
        games: [game], teams: plays.header.teams(sport: scored),
        plays: ScoredPlayRows.plays(plays.rows, gameId: game.id, sport: scored), warnings: warnings)
    }
    let game = plays.header.game(sport: sport)
    return Batch(
      games: [game], teams: plays.header.teams(sport: sport), plays: PlayRows.plays(plays.rows, gameId: game.id))
  }
}
