import Foundation
import PostgresNIO
import StatlineCommit
import StatlineCore

/// The planner's reads (`AsyncCommitReads`) answered on one connection of a shared database:
/// what another worker wrote is read, and what was read is held at commit (`statline_commit`
/// writes nothing when a record changed since).
///
/// Two workers that see two sources of one game at once both make the same canonical id (it is
/// a function of the sport, the date and the teams), and each commit checks that every game the
/// merge read is still as it was read, a canonical game it found absent included
/// (`MergeReads`, passed to `statline_commit` as held hashes). The second to commit finds the
/// first's canonical game, writes nothing, reads again and joins it: one canonical game, merged
/// from both sources. Under the write lock (the locked path) nothing can change between the read
/// and the write.
struct PostgresReads: AsyncCommitReads {
  let store: PostgresStore
  let connection: PostgresConnection
  /// The poll's target was last committed by this process and nothing touched it since
  /// (`CommittedTargets`): the stored hashes are taken from memory, and `statline_commit`
  /// checks them.
  let trustsMemory: Bool

  func remembered<Value>(_ body: (RecentRecords) -> Value) -> Value { store.recent.withLock { body($0) } }

  /// One round trip: the games under `ids`, and the source games the canonical ones among them
  /// hold.
  func games(_ ids: [String]) async throws -> [String: StoredGame] {
    store.canonicalReads.withLock { $0 += 1 }
    var found: [String: StoredGame] = [:]
    for try await (id, hash, json, changed) in try await connection.query(
      """
      WITH c AS (SELECT id, hash, json, changed_at FROM games WHERE id = ANY(\(ids)::text[]))
      SELECT id, hash, json::text, changed_at FROM c
      UNION SELECT g.id, g.hash, g.json::text, g.changed_at FROM games g
        WHERE g.id IN (SELECT jsonb_array_elements_text(c.json->'sources') FROM c WHERE starts_with(c.id, 'game:'))
      """, logger: store.logger
    ).decode((String, Int64, String, Double?).self) {
      guard let game = try store.decodeGame(json) else { continue }
      found[id] = StoredGame(game: game, hash: hash, changedAt: changed.map(Date.init(timeIntervalSince1970:)))
    }
    return found
  }

  /// What the store holds under each row's id, in one query for every kind (or from memory,
  /// when it is trusted).
  func records(of rows: [PlannedRow], games: Bool) async throws -> [RecordKey: StoredRecord] {
    if trustsMemory { return remembered(rows, games: games) }
    func ids(_ kind: StoreChange.Kind) -> [String] { rows.filter { $0.kind == kind }.map(\.id) }
    let plays = rows.filter { $0.kind == .play }
    // A canonical game's record is read only when events are derived from it.
    let gameJSON = games ? "json::text" : "NULL::text"
    let query: PostgresQuery = """
      SELECT 'game', id, hash, \(unescaped: gameJSON) FROM games WHERE id = ANY(\(ids(.game))::text[])
      UNION ALL SELECT 'team', id, hash, NULL FROM teams WHERE id = ANY(\(ids(.team))::text[])
      UNION ALL SELECT 'boxScore', game_id, hash, NULL FROM box_scores WHERE game_id = ANY(\(ids(.boxScore))::text[])
      UNION ALL SELECT 'ranking', id, hash, NULL FROM rankings WHERE id = ANY(\(ids(.ranking))::text[])
      UNION ALL SELECT 'play', p.game_id || '#' || p.sequence, p.hash, NULL FROM plays p
        JOIN unnest(\(plays.map(\.gameId))::text[], \(plays.map { Int32(clamping: $0.sequence) })::int[]) AS k(g, s)
        ON p.game_id = k.g AND p.sequence = k.s
      """
    var result: [RecordKey: StoredRecord] = [:]
    for try await (kind, id, hash, json) in try await connection.query(query, logger: store.logger).decode(
      (String, String, Int64, String?).self)
    {
      guard let kind = StoreChange.Kind(rawValue: kind) else { continue }
      var game: Game?
      if let json, id.hasPrefix(Game.canonicalPrefix) { game = try store.decodeGame(json) }
      result[RecordKey(kind, id)] = StoredRecord(hash: hash, game: game)
    }
    return result
  }

  /// What this process last wrote or read under each row's id, as `records` answers.
  private func remembered(_ rows: [PlannedRow], games: Bool) -> [RecordKey: StoredRecord] {
    remembered { recent in
      var stored: [RecordKey: StoredRecord] = [:]
      for row in rows {
        guard let hash = recent.rememberedHash(row.kind, row.id, row.record) else { continue }
        stored[row.key] = StoredRecord(hash: hash, game: games && row.isCanonicalGame ? recent.game(row.id) : nil)
      }
      return stored
    }
  }

  /// The latest events of each game, newest first.
  func recentEvents(of gameIds: [String]) async throws -> [String: [ChangeEvent]] {
    var result: [String: [ChangeEvent]] = [:]
    for id in gameIds {
      var events: [ChangeEvent] = []
      for try await json in try await connection.query(
        "SELECT json::text FROM events WHERE game_id = \(id) ORDER BY sequence DESC LIMIT 32", logger: store.logger
      ).decode(String.self) {
        events.append(try store.decodeEvent(json))
      }
      result[id] = events
    }
    return result
  }
}

extension PostgresStore {
  /// A stored game's record from its JSON.
  func decodeGame(_ json: String) throws(StatlineError) -> Game? {
    guard case .game(let game) = try RecordRow.decode(.game, Data(json.utf8), path: location.description) else {
      return nil
    }
    return game
  }
}
