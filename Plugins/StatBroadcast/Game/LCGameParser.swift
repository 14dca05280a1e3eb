import StatlineCore
import StatlineHTML

/// Reads StatCrew-schema game XML in one streaming pass (`LCGameReader`).
struct LCGameParser: PageParser {
  func parse(_ page: Page) throws -> LCGame {
    var reader = LCGameReader()
    try XMLStream.read(page.body, into: &reader, url: page.url)
    guard reader.sawRoot else { throw StatlineError(.wrongPage, "the XML has no root element") }
    let teams = reader.game.teams.count
    guard teams == 2 else {
      throw StatlineError(
        .wrongPage, "the game has \(teams) <team> element(s), not 2",
        hint: "the XML may be cut off or still being written; it is retried on the next poll")
    }
    return reader.game
  }
}
