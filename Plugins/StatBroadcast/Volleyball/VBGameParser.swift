import StatlineCore
import StatlineHTML

/// Reads a StatCrew volleyball file in one streaming pass: venue, status, both teams with their
/// set scores, totals and players, and the rallies (`<plays>` by `<game>`, one per set).
struct VBGameParser: PageParser {
  func parse(_ page: Page) throws -> VBGame {
    var reader = VBGameReader()
    try XMLStream.read(page.body, into: &reader, url: page.url)
    guard reader.game.teams.count == 2 else {
      throw StatlineError(
        .wrongPage, "the volleyball game has \(reader.game.teams.count) <team> element(s), not 2",
        hint: "the XML may be cut off or still being written; it is retried on the next poll")
    }
    return reader.game
  }
}

struct VBGameReader: XMLStreamReader {
  private enum Place { case root, team, linescore, totals, player, plays, set, other }

  /// The stat groups a `totals` or `player` element holds.
  static let groups: Set<String> = ["attack", "set", "serve", "defense", "block", "misc"]

  private(set) var game = VBGame()
  private var places: [Place] = []
  private var set = 0

  static var readsText: Bool { false }

  mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError) {
    guard let parent = places.last else {
      places.append(.root)
      return
    }
    places.append(place(of: element.string, in: parent, attributes.dictionary))
  }

  mutating func end(_ element: XMLName) { places.removeLast() }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {}

  private mutating func place(of element: String, in parent: Place, _ attributes: [String: String]) -> Place {
    let team = game.teams.count - 1
    switch (parent, element) {
    case (.root, "venue"):
      if game.venue.isEmpty { game.venue = attributes }
    case (.root, "status"):
      if game.status == nil { game.status = attributes }
    case (.root, "team"):
      game.teams.append(VBTeam(attributes: attributes))
      return .team
    case (.team, "linescore"):
      game.teams[team].linescore = attributes
      return .linescore
    case (.linescore, "linegame"):
      game.teams[team].sets.append(
        LCPeriodScore(period: GameText.int(attributes["game"]) ?? 0, score: attributes["points"] ?? ""))
    case (.team, "totals"):
      return .totals
    case (.totals, let group) where Self.groups.contains(group):
      for (name, value) in attributes { game.teams[team].totals["\(group).\(name)"] = value }
    case (.team, "player"):
      game.teams[team].players.append(VBPlayer(attributes: attributes))
      return .player
    case (.player, let group) where Self.groups.contains(group):
      let player = game.teams[team].players.count - 1
      for (name, value) in attributes { game.teams[team].players[player].stats["\(group).\(name)"] = value }
    case (.root, "plays"):
      return .plays
    case (.plays, "game"):
      set = GameText.int(attributes["number"]) ?? 0
      return .set
    case (.set, "play"):
      game.plays.append(VBPlay(set: set, attributes: attributes))
    default:
      break
    }
    return .other
  }
}
