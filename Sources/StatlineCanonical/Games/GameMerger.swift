import StatlineCore

/// Merges the source records of one game, field by field and by rule (architecture.md#canonical-games):
/// - status, score, period and clock come from one source record, the **live source**: at first
///   the record furthest along (`GameProgress`; ties by precedence); afterwards the live source
///   stays until another feed that changed since it last did is further along. A feed that lags (a calendar
///   a period behind the StatCrew file) never moves the game backwards, while the live source's
///   own correction (a goal taken back) is shown;
/// - two finals that disagree keep the higher-precedence feed's and report a conflict; nothing is
///   averaged, and the order of polls cannot flip it;
/// - start time, venue, neutral site and attendance come from the feeds first in schedule order
///   (`SourceFeeds.scheduleOrder`: the NCAA's, as its plugin declares);
/// - ranks and records from the first feed by precedence that gives them;
/// - the teams are canonical (the registry's id and name) where they resolve, oriented as the
///   schedule's first feed has them, every other record's sides swapped to match.
public struct GameMerger: Sendable {
  /// The plugins' feeds: which feed a game id is, and the schedule order.
  public var feeds: SourceFeeds
  /// Box scores, plays and disputed finals: the feeds' declared precedence, or the
  /// configuration's (`merge.precedence`).
  public var precedence: [SourceFeed]
  public var registry: TeamRegistry

  public init(feeds: SourceFeeds, precedence: [SourceFeed]? = nil, registry: TeamRegistry) {
    self.feeds = feeds
    self.precedence = precedence ?? feeds.precedence
    self.registry = registry
  }

  /// The rank of a feed: its place in `precedence`, or after every listed one.
  public func rank(_ feed: SourceFeed) -> Int { precedence.firstIndex(of: feed) ?? precedence.count }

  /// The rank of a source game's feed.
  func rank(_ source: SourceGame) -> Int { rank(source.feed) }

  /// The rank of a source game's feed for schedule facts, ties by precedence.
  func scheduleRank(_ source: SourceGame) -> (Int, Int) {
    (feeds.scheduleOrder.firstIndex(of: source.feed) ?? feeds.scheduleOrder.count, rank(source.feed))
  }

  /// The preferred of several source games (for the box score and the plays): by precedence.
  public func preferred(_ gameIds: [String]) -> String? {
    gameIds.min { (rank(feeds.feed(of: $0)), $0) < (rank(feeds.feed(of: $1)), $1) }
  }

  public func merge(id: String, sources: [SourceGame], previous: MergedGame?) -> MergedGame? {
    merge(id: id, sources: sources, previousLiveSource: previous?.liveSource)
  }

  /// `merge(id:sources:previous:)` told only what of the previous merge it uses: its live source.
  public func merge(id: String, sources: [SourceGame], previousLiveSource: String?) -> MergedGame? {
    guard sources.count > 1 else { return sources.first.map { merge(id: id, alone: $0) } }
    return mergeSeveral(id: id, sources: sources, previousLiveSource: previousLiveSource)
  }

  /// The merge of a game one source holds, the usual case: that source is the live source, the
  /// anchor and the first by schedule and precedence, so the game is its own with the canonical
  /// id and teams (what `mergeSeveral` gives for it, without copying it to sort, orient and rank).
  func merge(id: String, alone source: SourceGame) -> MergedGame {
    var game = source.game
    game.id = id
    game.away.team = team(source.awayTeam, fallback: source.game.away.team)
    game.home.team = team(source.homeTeam, fallback: source.game.home.team)
    return MergedGame(game: game, liveSource: source.game.id, sources: [source.game.id], reversed: [], conflict: nil)
  }

  /// The merge of any number of sources, by the rules above.
  func mergeSeveral(id: String, sources: [SourceGame], previousLiveSource: String?) -> MergedGame? {
    let ordered = sources.sorted { (rank($0), $0.game.id) < (rank($1), $1.game.id) }
    guard let first = ordered.first else { return nil }
    // Orientation: the schedule's first feed decides which team is away.
    let anchor = ordered.min { scheduleRank($0) < scheduleRank($1) }!
    var reversed: [String] = []
    var oriented = ordered
    for index in oriented.indices
    where oriented[index].awayTeam != anchor.awayTeam && oriented[index].awayTeam == anchor.homeTeam {
      reversed.append(oriented[index].game.id)
      oriented[index].game.swapSides()
      (oriented[index].awayTeam, oriented[index].homeTeam) = (oriented[index].homeTeam, oriented[index].awayTeam)
    }

    var live = oriented.first { $0.game.id == previousLiveSource }
    if let current = live {
      // A feed that changed since the live source last did, and is further along, takes over
      // (the furthest of them); one that changed but is behind is catching up, and is ignored.
      let ahead = oriented.filter { other in
        other.game.id != current.game.id && other.liveChangedAt > current.liveChangedAt
          && GameProgress(other.game) > GameProgress(current.game)
      }
      if let best = ahead.max(by: { (GameProgress($0.game), -rank($0)) < (GameProgress($1.game), -rank($1)) }) {
        live = best
      }
    } else {
      live = oriented.max { (GameProgress($0.game), -rank($0)) < (GameProgress($1.game), -rank($1)) }
    }
    var conflict: GameConflict?
    let finals = oriented.filter { $0.game.status == .final }
    if let kept = finals.first, let other = finals.first(where: { Self.score($0.game) != Self.score(kept.game) }) {
      live = kept
      conflict = GameConflict(
        kept: kept.game.id, keptScore: Self.score(kept.game), other: other.game.id, otherScore: Self.score(other.game))
    }
    guard let live else { return nil }

    var game = live.game
    game.id = id
    game.sport = first.game.sport
    let bySchedule = oriented.sorted { scheduleRank($0) < scheduleRank($1) }
    game.date = anchor.game.date ?? bySchedule.lazy.compactMap(\.game.date).first
    game.startTime = bySchedule.lazy.compactMap(\.game.startTime).first
    game.venue = bySchedule.lazy.compactMap(\.game.venue).first
    game.neutralSite = bySchedule.lazy.compactMap(\.game.neutralSite).first
    game.attendance = bySchedule.lazy.compactMap(\.game.attendance).first
    game.gameNumber = bySchedule.lazy.compactMap(\.game.gameNumber).first
    game.away.team = team(anchor.awayTeam, fallback: anchor.game.away.team)
    game.home.team = team(anchor.homeTeam, fallback: anchor.game.home.team)
    game.away.rank = oriented.lazy.compactMap(\.game.away.rank).first
    game.home.rank = oriented.lazy.compactMap(\.game.home.rank).first
    game.away.record = oriented.lazy.compactMap(\.game.away.record).first
    game.home.record = oriented.lazy.compactMap(\.game.home.record).first
    return MergedGame(
      game: game, liveSource: live.game.id, sources: ordered.map(\.game.id), reversed: reversed, conflict: conflict)
  }

  /// The canonical team of an identity: the registry's id and name, else the source's own.
  func team(_ identity: String, fallback: TeamRef) -> TeamRef {
    guard let team = registry.team(id: identity) else { return fallback }
    return TeamRef(id: team.id, name: team.name, abbreviation: team.abbreviation ?? fallback.abbreviation)
  }

  static func score(_ game: Game) -> String { "\(game.away.score ?? 0)-\(game.home.score ?? 0)" }
}

extension Game {
  /// Away and home the other way round.
  mutating func swapSides() { (away, home) = (home, away) }
}
