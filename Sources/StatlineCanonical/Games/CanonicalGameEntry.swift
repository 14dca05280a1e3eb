import StatlineCore

/// A canonical game as matching sees it: its stable id, what it was matched on, and the source
/// games joined to it. The store keeps one per canonical game.
public struct CanonicalGameEntry: Sendable, Equatable, Codable {
  public struct Member: Sendable, Equatable, Codable {
    public var gameId: String
    public var feed: SourceFeed
    public var startTime: String?
    /// The doubleheader game number its page gives (`Game.gameNumber`), if any.
    public var gameNumber: Int?

    public init(gameId: String, feed: SourceFeed, startTime: String?, gameNumber: Int? = nil) {
      self.gameId = gameId
      self.feed = feed
      self.startTime = startTime
      self.gameNumber = gameNumber
    }

    /// The member a source game is: its id, feed, start and game number.
    public init(_ game: Game, feed: SourceFeed) {
      self.init(gameId: game.id, feed: feed, startTime: game.startTime, gameNumber: game.gameNumber)
    }
  }

  /// `game:2026-03-14:lacrosse-men:342~457` (the second game of a doubleheader ends `~g2`; a team
  /// that does not resolve is its source identity slugged, `statbroadcast-team-ncb`); a
  /// source game that cannot be matched (no date, or its sport unknown) is `game:` and its own id.
  public var id: String
  public var sport: Sport
  public var date: String?
  /// The two teams' identities, sorted (`SourceGame.pair`).
  public var pair: [String]
  /// 1, or 2 and up for the later games of a doubleheader.
  public var number: Int
  public var members: [Member]

  public init(id: String, sport: Sport, date: String?, pair: [String], number: Int, members: [Member]) {
    self.id = id
    self.sport = sport
    self.date = date
    self.pair = pair
    self.number = number
    self.members = members
  }

  /// The id a new canonical game takes: a function of what it is matched on, so two workers that
  /// create it at once create the same one (the store's primary key then keeps one).
  public static func id(sport: Sport, date: String, pair: [String], number: Int) -> String {
    // A canonical team by its org id; a team that did not resolve by its source identity, slugged.
    let teams = pair.map {
      $0.hasPrefix("team:") ? String($0.dropFirst(5)) : GameText.slug(String($0.dropFirst("source:".count)))
    }.joined(separator: "~")
    return "game:\(date):\(sport.rawValue):\(teams)" + (number > 1 ? "~g\(number)" : "")
  }
}
