import StatlineCore
import StatlineHTML

/// Builds an `LCGame` from the XML's elements as libxml2 streams them: no tree, and the stat
/// groups' numbers read from the bytes (a game holds thousands of stat attributes).
struct LCGameReader: XMLStreamReader {
  /// Where an element sits; everything Statline does not read is `.other`.
  private enum Place { case root, venue, team, linescore, totals, player, plays, period, other }

  private(set) var game = LCGame()
  private(set) var sawRoot = false
  private var places: [Place] = []
  private var period = 0

  mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError) {
    guard let parent = places.last else {
      try Self.checkRoot(element)
      sawRoot = true
      places.append(.root)
      return
    }
    places.append(place(of: element, in: parent, attributes))
  }

  mutating func end(_ element: XMLName) {
    places.removeLast()
  }

  private mutating func place(of element: XMLName, in parent: Place, _ attributes: XMLAttributes) -> Place {
    switch parent {
    case .root:
      if element == "team" {
        game.teams.append(LCTeam(attributes: attributes.dictionary))
        return .team
      }
      if element == "plays" { return .plays }
      if element == "venue" {
        if game.venue.isEmpty { game.venue = attributes.dictionary }
        return .venue
      }
      if element == "status", game.status == nil { game.status = attributes.dictionary }
    case .venue:
      if element == "rules", game.rules.isEmpty { game.rules = attributes.dictionary }
      if element == "show", game.show.isEmpty { game.show = attributes.dictionary }
    case .team:
      let team = game.teams.count - 1
      if element == "player" {
        game.teams[team].players.append(Self.player(attributes))
        return .player
      }
      if element == "linescore" {
        if game.teams[team].linescore.isEmpty { game.teams[team].linescore = attributes.dictionary }
        return .linescore
      }
      if element == "totals" { return .totals }
    case .linescore:
      if element == "lineprd" {
        game.teams[game.teams.count - 1].periods.append(
          LCPeriodScore(period: attributes["prd"]?.int ?? 0, score: attributes["score"]?.string ?? ""))
      }
    case .totals:
      Self.read(element, attributes, into: &game.teams[game.teams.count - 1].totals)
    case .player:
      let team = game.teams.count - 1
      Self.read(element, attributes, into: &game.teams[team].players[game.teams[team].players.count - 1].stats)
    case .plays:
      if element == "period" {
        period = attributes["number"]?.int ?? 0
        return .period
      }
    case .period:
      if element == "play" {
        game.plays.append(Self.play(attributes, period: period))
      } else if element == "currentscore", let last = game.plays.indices.last, game.plays[last].period == period {
        if let visitor = attributes["vscore"]?.int, let home = attributes["hscore"]?.int {
          game.plays[last].score = LCScore(visitor: visitor, home: home)
        } else {
          game.plays[last].score = nil
        }
      }
    case .other:
      break
    }
    return .other
  }

  private static func player(_ attributes: XMLAttributes) -> LCPlayer {
    var player = LCPlayer(name: "")
    for (name, value) in attributes {
      if name == "name" {
        player.name = value.string
      } else if name == "uni" {
        player.number = value.string
      } else if name == "gp" {
        player.gamesPlayed = value.string
      } else if name == "gs" {
        player.gamesStarted = value.string
      } else if name == "pos" {
        player.position = value.string
      }
    }
    return player
  }

  private static func play(_ attributes: XMLAttributes, period: Int) -> LCPlay {
    var play = LCPlay(period: period, action: "", text: "")
    for (name, value) in attributes {
      if name == "text" {
        play.text = value.string
      } else if name == "action" {
        play.action = value.string
      } else if name == "clock" {
        play.clock = value.string
      } else if name == "team" {
        play.team = value.string
      } else if name == "vh" {
        play.side = value.string
      }
    }
    return play
  }

  /// One stat group element's attributes into `stats`; any element counts as a group.
  private static func read(_ group: XMLName, _ attributes: XMLAttributes, into stats: inout LCStats) {
    stats.groups += 1
    let stat: (XMLName) -> LCStat?
    if group == "shots" {
      stat = shots
    } else if group == "misc" {
      stat = misc
    } else if group == "goaltype" {
      stat = { $0 == "freepos" ? .freePositionGoals : nil }
    } else if group == "penalty" {
      stat = { $0 == "count" ? .penalties : $0 == "seconds" ? .penaltySeconds : nil }
    } else if group == "goalie" {
      stat = { $0 == "saves" ? .saves : $0 == "ga" ? .goalsAllowed : $0 == "minutes" ? .goalieSeconds : nil }
    } else if group == "clear" {
      stat = { $0 == "clearm" ? .clearsMade : $0 == "cleara" ? .clearsAttempted : nil }
    } else {
      return
    }
    for (name, value) in attributes {
      guard let key = stat(name) else { continue }
      stats[key] = key == .goalieSeconds ? GameText.seconds(value.string) : value.int
    }
  }

  private static func shots(_ name: XMLName) -> LCStat? {
    if name == "g" { return .goals }
    if name == "a" { return .assists }
    if name == "sh" { return .shots }
    if name == "sog" { return .shotsOnGoal }
    if name == "fpa" { return .freePositionAttempts }
    if name == "freepos" { return .freePositionShots }
    return nil
  }

  private static func misc(_ name: XMLName) -> LCStat? {
    if name == "gb" { return .groundBalls }
    if name == "turnover" { return .turnovers }
    if name == "ct" { return .causedTurnovers }
    if name == "dc" { return .drawControls }
    if name == "facewon" { return .faceoffsWon }
    if name == "facelost" { return .faceoffsLost }
    return nil
  }

  static let otherSports: [String: String] = [
    "bbgame": "basketball", "wbbgame": "women's basketball", "bsgame": "baseball or softball",
    "fbgame": "football", "sogame": "soccer", "vbgame": "volleyball", "hkgame": "hockey",
  ]

  /// Lacrosse (`<lcgame>`) is read in full; any other sport root is a clear "unsupported sport"
  /// error, and anything else is the wrong page.
  private static func checkRoot(_ root: XMLName) throws(StatlineError) {
    guard !(root == "lcgame") else { return }
    let name = root.string
    if let sport = otherSports[name] {
      throw StatlineError(
        .unsupported,
        "unsupported sport: <\(name)> is \(sport); this parser reads lacrosse (<lcgame>), basketball (<bbgame>), volleyball (<vbgame>), soccer or field hockey (<sogame>), football (<fbgame>) and baseball or softball (<bsgame>)",
        hint: "hockey (<hkgame>) game XML is not read yet: no real file has been seen")
    }
    throw StatlineError(
      .wrongPage, "the XML root is <\(name)>, not a StatCrew game (<lcgame>)",
      hint: "check that the URL points at a game's XML")
  }
}
