import StatlineCore
import StatlineHTML

/// Reads a StatCrew basketball file in one streaming pass: venue, rules, status, both teams with
/// their line scores, totals and players, and the plays (`<plays format="tokens">`).
struct BBGameParser: PageParser {
  func parse(_ page: Page) throws -> BBGame {
    var reader = BBGameReader()
    try XMLStream.read(page.body, into: &reader, url: page.url)
    guard reader.sawRoot else { throw StatlineError(.wrongPage, "the XML has no root element") }
    guard reader.game.teams.count == 2 else {
      throw StatlineError(
        .wrongPage, "the game has \(reader.game.teams.count) <team> element(s), not 2",
        hint: "the XML may be cut off or still being written; it is retried on the next poll")
    }
    return reader.game
  }
}

struct BBGameReader: XMLStreamReader {
  private enum Place { case root, venue, team, linescore, totals, player, plays, period, other }

  private(set) var game = BBGame()
  private(set) var sawRoot = false
  private var places: [Place] = []
  private var period = 0

  static var readsText: Bool { false }

  mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError) {
    guard let parent = places.last else {
      game.root = element.string
      sawRoot = true
      places.append(.root)
      return
    }
    places.append(place(of: element.string, in: parent, attributes.dictionary))
  }

  mutating func end(_ element: XMLName) { places.removeLast() }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {}

  private mutating func place(of element: String, in parent: Place, _ attributes: [String: String]) -> Place {
    switch (parent, element) {
    case (.root, "venue"):
      if game.venue.isEmpty { game.venue = attributes }
      return .venue
    case (.venue, "rules"):
      if game.rules.isEmpty { game.rules = attributes }
    case (.root, "status"):
      if game.status == nil { game.status = attributes }
    case (.root, "team"):
      game.teams.append(BBTeam(attributes: attributes))
      return .team
    case (.team, "linescore"):
      game.teams[game.teams.count - 1].linescore = attributes
      return .linescore
    case (.linescore, "lineprd"):
      game.teams[game.teams.count - 1].periods.append(
        LCPeriodScore(period: GameText.int(attributes["prd"]) ?? 0, score: attributes["score"] ?? ""))
    case (.team, "totals"):
      return .totals
    case (.totals, "stats"):
      game.teams[game.teams.count - 1].totals = attributes
    case (.team, "player"):
      game.teams[game.teams.count - 1].players.append(BBPlayer(attributes: attributes))
      return .player
    case (.player, "stats"):
      let team = game.teams.count - 1
      game.teams[team].players[game.teams[team].players.count - 1].stats = attributes
    case (.root, "plays"):
      return .plays
    case (.plays, "period"):
      period = GameText.int(attributes["number"]) ?? 0
      return .period
    case (.period, "play"):
      game.plays.append(BBPlay(period: period, attributes: attributes))
    default:
      break
    }
    return .other
  }
}
