import StatlineCore

/// A canonical game's box score and plays (architecture.md#canonical-games): they are never merged across
/// sources (each source numbers its plays its own way), so a canonical game shows those of its
/// first source by precedence that has them, turned to the canonical game's sides and named by
/// the canonical id; the answer says which source they come from.
/// One source of a canonical game, as `/v1/games/{id}` lists them: its id, whether the game
/// shows its status and score, when a target last polled it and when its record last changed.
struct SourceLine: Encodable {
  var id: String
  var live: Bool
  @NullEncoded var polledAt: String?
  @NullEncoded var changedAt: String?
}

extension ReadAPI {
  /// The game's sources, by precedence.
  func sourceLines(of game: Game, stamp: StoreStamp) async throws -> [SourceLine] {
    let sources = game.sources ?? [game.id]
    let board = try await board(stamp: stamp)
    let changed = try await reader.changedAt(gameIds: sources)
    return sources.map { id in
      let polled = board.feeders[id]?.compactMap(\.lastSucceeded).max()
      return SourceLine(
        id: id, live: id == (game.liveSource ?? game.id), polledAt: polled.map(Freshness.iso),
        changedAt: changed[id].map(Freshness.iso))
    }
  }

  /// The game's box score and the source game it comes from.
  func boxScore(of game: Game) async throws -> (box: BoxScore, source: String)? {
    Self.boxScore(of: game, from: try await reader.boxScores(gameIds: game.sources ?? [game.id])).map {
      ($0.box, $0.source)
    }
  }

  /// The box score a game shows, from the stored box scores of its sources (and maybe others'):
  /// its first source by precedence that has one, on the game's sides, named by the game's id;
  /// with the source and the version that box score was written at.
  static func boxScore(of game: Game, from stored: [String: StoredBoxScore]) -> (
    box: BoxScore, source: String, version: Int64
  )? {
    for source in game.sources ?? [game.id] {
      guard let found = stored[source] else { continue }
      var shown = (game.reversedSources ?? []).contains(source) ? found.boxScore.sidesTurned() : found.boxScore
      shown.gameId = game.id
      return (shown, source, found.version)
    }
    return nil
  }

  /// The game's plays after `sequence` and the source game they come from (the first source
  /// when none has plays yet).
  func plays(of game: Game, after sequence: Int, limit: Int) async throws -> (plays: [Play], source: String) {
    let sources = game.sources ?? [game.id]
    let reversed = Set(game.reversedSources ?? [])
    for source in sources {
      if sources.count > 1, try await reader.plays(gameId: source, after: 0, limit: 1).isEmpty { continue }
      let plays = try await reader.plays(gameId: source, after: sequence, limit: limit).map { play in
        var shown = reversed.contains(source) ? play.sidesTurned() : play
        shown.gameId = game.id
        return shown
      }
      return (plays, source)
    }
    return ([], sources.first ?? game.id)
  }
}
