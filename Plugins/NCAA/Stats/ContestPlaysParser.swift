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
}

/// `/contests/{id}/play_by_play` (current layout, STRUCTURE.md §2a): one card per period
/// ("1st Period" …), each a table of Time | visitor | Score | home; the side that acted is
/// the non-empty text cell; period events span three cells.
struct ContestPlaysParser: PageParser {
  func parse(_ page: Page) throws -> PlaysPage<ContestHeader> {
    let document = try StatsPage.document(page)
    let header = try ContestHeader.read(document, page: page)
    let cards = try document.select(
      xpath: "//div[contains(concat(' ',normalize-space(@class),' '),' card ')]"
        + "[div[contains(@class,'card-header')][contains(., 'Period') or contains(., 'Quarter') or contains(., 'Overtime')]]"
        + "[.//table]")
    guard !cards.isEmpty else {
      throw StatlineError(
        .wrongPage, "the page has no period cards (div.card with a '1st Period' header and a table)",
        hint: "the play-by-play may not have started, or the layout changed")
    }
    var rows: [PlayRow] = []
    for (index, card) in cards.enumerated() {
      let title = try card.first(xpath: "./div[contains(@class,'card-header')]")?.text ?? ""
      let period = Int(title.prefix { $0.isNumber }) ?? index + 1
      for row in try card.select(xpath: ".//table//tr[td]") {
        let cells = try row.select(xpath: "./td")
        guard let clock = cells.first?.text else { continue }
        if cells.count == 2 {
          rows.append(PlayRow(period: period, clock: clock, side: nil, text: cells[1].text))
          continue
        }
        guard cells.count >= 4 else { continue }
        rows.append(PlayRow(period: period, clock: clock, awayText: cells[1].text, homeText: cells[3].text))
      }
    }
    return PlaysPage(header: header, rows: rows)
  }
}

/// The header's game (the final score comes from the header, never from the last row's
/// running score, which is not monotonic) and the typed plays; the sport from the play texts.
struct PlaysPageNormalizer<Header: GameHeader>: Normalizer {
  func normalize(_ plays: PlaysPage<Header>, page: Page) throws -> Batch {
    let sport = try PlayRows.sport(of: plays.rows.map(\.text))
    let game = plays.header.game(sport: sport)
    return Batch(
      games: [game], teams: plays.header.teams(sport: sport), plays: PlayRows.plays(plays.rows, gameId: game.id))
  }
}
