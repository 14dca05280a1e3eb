import StatlineCore
import StatlineHTML

/// Reads a grouped StatCrew file (`GroupedGame`) in one streaming pass: venue, rules, status,
/// both teams with their period lines, totals and players, and the plays by period.
struct GroupedGameParser: PageParser {
  let layout: GroupedLayout

  func parse(_ page: Page) throws -> GroupedGame {
    var reader = GroupedGameReader(layout: layout)
    try XMLStream.read(page.body, into: &reader, url: page.url)
    guard !reader.game.root.isEmpty else { throw StatlineError(.wrongPage, "the XML has no root element") }
    guard reader.game.teams.count == 2 else {
      throw StatlineError(
        .wrongPage, "the <\(layout.root)> game has \(reader.game.teams.count) <team> element(s), not 2",
        hint: "the XML may be cut off or still being written; it is retried on the next poll")
    }
    return reader.game
  }
}

struct GroupedGameReader: XMLStreamReader {
  private enum Place { case root, venue, team, linescore, totals, player, plays, period, half, play, other }

  let layout: GroupedLayout
  private(set) var game = GroupedGame()
  private var places: [Place] = []
  private var period = 0
  /// The side of the half-inning being read (baseball).
  private var vh: String?

  init(layout: GroupedLayout) { self.layout = layout }

  static var readsText: Bool { false }

  mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError) {
    guard let parent = places.last else {
      game.root = element.string
      game.rootAttributes = attributes.dictionary
      places.append(.root)
      return
    }
    places.append(place(of: element.string, in: parent, attributes))
  }

  mutating func end(_ element: XMLName) { places.removeLast() }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {}

  /// The element's place; its attributes are read into a dictionary only where they are kept
  /// (most elements of a file are not: building them all was a sixth of a soccer file's read).
  private mutating func place(of element: String, in parent: Place, _ xmlAttributes: XMLAttributes) -> Place {
    let team = game.teams.count - 1
    var attributes: [String: String] { xmlAttributes.dictionary }
    switch (parent, element) {
    case (.root, "venue"):
      if game.venue.isEmpty { game.venue = attributes }
      return .venue
    case (.venue, "rules"):
      if game.rules.isEmpty { game.rules = attributes }
    case (.venue, "show"):
      if game.show == nil { game.show = attributes }
    case (.root, "status"):
      if game.status == nil { game.status = attributes }
    case (.root, "team"):
      game.teams.append(GroupedTeam(attributes: attributes))
      return .team
    case (.team, "linescore"):
      game.teams[team].linescore = attributes
      return .linescore
    case (.linescore, layout.line):
      game.teams[team].periods.append(attributes)
    case (.team, "totals"):
      return .totals
    case (.totals, let group) where layout.groups.contains(group):
      // Backwards: of an attribute written twice the first is kept, as `dictionary` keeps it.
      for index in xmlAttributes.indices.reversed() {
        let (name, value) = xmlAttributes[index]
        game.teams[team].totals[group + "." + name.string] = value.string
      }
    case (.team, "player"):
      game.teams[team].players.append(GroupedPlayer(attributes: attributes))
      return .player
    case (.player, let group) where layout.groups.contains(group):
      let player = game.teams[team].players.count - 1
      for index in xmlAttributes.indices.reversed() {
        let (name, value) = xmlAttributes[index]
        game.teams[team].players[player].stats[group + "." + name.string] = value.string
      }
    case (.root, "plays"):
      return .plays
    case (.plays, layout.playPeriod):
      period = GameText.int(xmlAttributes["number"]?.string) ?? 0
      return .period
    case (.period, layout.half):
      vh = xmlAttributes["vh"]?.string
      return .half
    case (.period, "play"), (.half, "play"):
      var attributes = attributes
      if parent == .half, let vh { attributes["vh"] = vh }
      game.plays.append(GroupedPlay(period: period, attributes: attributes))
      return .play
    case (.play, "narrative"):
      if let text = xmlAttributes["text"]?.string { game.plays[game.plays.count - 1].attributes["text"] = text }
    default:
      break
    }
    return .other
  }
}
