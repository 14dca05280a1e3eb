/// What a store does with the differ inside a write's transaction (the same for every store).
extension ScoreDiffer {
  /// One game the write changed: its new content, what the store held before (nil: never seen)
  /// and the version it was written at.
  public struct ChangedGame: Sendable {
    public var current: Game
    public var previous: Game?
    public var version: Int64

    public init(current: Game, previous: Game?, version: Int64) {
      self.current = current
      self.previous = previous
      self.version = version
    }
  }

  /// A poll's week the write stored for the first time, and the version it was written at.
  public struct PublishedRanking: Sendable {
    public var ranking: Ranking
    public var version: Int64

    public init(ranking: Ranking, version: Int64) {
      self.ranking = ranking
      self.version = version
    }
  }

  /// The numbered events of a write: each changed game (in batch order) against its previous
  /// version, with the batch's plays (those of a source game count for its canonical game), then
  /// a `ranking.published` for each new week, numbered from `after + 1`.
  ///
  /// - Parameter lastLeader: the side that led last in a game, from its stored events (asked
  ///   only for a game whose previous version is tied).
  public static func events(
    of changed: [ChangedGame], published: [PublishedRanking] = [], batch: Batch?, after sequence: Int64,
    lastLeader: (String) throws -> Side?
  ) rethrows -> [ChangeEvent] {
    var next = sequence
    var events: [ChangeEvent] = []
    // A play counts for the canonical game its source game was merged into.
    var canonicalIds: [String: String] = [:]
    for game in batch?.games ?? [] { if let id = game.canonicalId { canonicalIds[game.id] = id } }
    for change in changed {
      let tied = change.previous.map { $0.away.score == $0.home.score } ?? false
      var plays: [Play] = []
      let reversed = Set(change.current.reversedSources ?? [])
      for play in batch?.plays ?? [] where (canonicalIds[play.gameId] ?? play.gameId) == change.current.id {
        var play = reversed.contains(play.gameId) ? play.sidesTurned() : play
        play.gameId = change.current.id
        plays.append(play)
      }
      for event in Self.events(
        previous: change.previous, current: change.current, plays: plays,
        lastLeader: tied ? try lastLeader(change.current.id) : nil)
      {
        next += 1
        events.append(
          event.numbered(sequence: next, version: change.version, source: batch?.source, parser: batch?.parser))
      }
    }
    // A paged poll's later pages are the same week: its first page announces it.
    for week in published where week.ranking.part == nil {
      next += 1
      events.append(
        ChangeEvent(published: week.ranking).numbered(
          sequence: next, version: week.version, source: batch?.source, parser: batch?.parser))
    }
    return events
  }
}
