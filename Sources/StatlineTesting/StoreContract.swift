import StatlineCore
import Testing

/// The behaviour every `Store` must have. A store's tests call `StoreContract.check(make)` with a
/// factory for empty stores.
public enum StoreContract {
  public static func check(
    _ make: () async throws -> any Store, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await versionsAndDeltaSync(try await make(), sourceLocation)
    try await unchangedRecordsAreNotRewritten(try await make(), sourceLocation)
    try await invalidBatchesWriteNothing(try await make(), sourceLocation)
  }

  static func game(_ id: String, away: Int?, home: Int?, status: GameStatus) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: status, period: status == .live ? 2 : nil,
      away: TeamLine(team: TeamRef(id: "t:1", name: "Army"), score: away),
      home: TeamLine(team: TeamRef(id: "t:2", name: "Navy"), score: home))
  }

  static func versionsAndDeltaSync(_ store: any Store, _ location: SourceLocation) async throws {
    let first = try await store.write(
      Batch(
        games: [game("g:1", away: 1, home: 0, status: .live), game("g:2", away: nil, home: nil, status: .scheduled)],
        teams: [Team(id: "t:1", name: "Army")]))
    #expect(first == StoreWrite(written: 3, unchanged: 0, version: 3), sourceLocation: location)
    let all = try await store.changes(since: 0, limit: 100)
    #expect(all.map(\.version) == [1, 2, 3], sourceLocation: location)
    #expect(all.map(\.id) == ["g:1", "g:2", "t:1"], sourceLocation: location)
    _ = try await store.write(Batch(games: [game("g:1", away: 2, home: 0, status: .live)]))
    let delta = try await store.changes(since: 3, limit: 100)
    #expect(delta.map(\.version) == [4], sourceLocation: location)
    #expect(delta.first?.record == .game(game("g:1", away: 2, home: 0, status: .live)), sourceLocation: location)
    #expect(try await store.changes(since: 0, limit: 2).map(\.id) == ["g:2", "t:1"], sourceLocation: location)
  }

  static func unchangedRecordsAreNotRewritten(_ store: any Store, _ location: SourceLocation) async throws {
    let batch = Batch(games: [game("g:1", away: 3, home: 4, status: .live)])
    _ = try await store.write(batch)
    let again = try await store.write(batch)
    #expect(again == StoreWrite(written: 0, unchanged: 1, version: 1), sourceLocation: location)
  }

  static func invalidBatchesWriteNothing(_ store: any Store, _ location: SourceLocation) async throws {
    let live = game("g:1", away: 3, home: 4, status: .live)
    _ = try await store.write(Batch(games: [live]))
    var broken = game("g:1", away: 9, home: 4, status: .live)
    broken.period = nil
    await #expect(throws: StatlineError.self, sourceLocation: location) {
      try await store.write(Batch(games: [broken, self.game("g:3", away: 0, home: 0, status: .live)]))
    }
    let all = try await store.changes(since: 0, limit: 100)
    #expect(all.map(\.record) == [.game(live)], "the store keeps the last good data", sourceLocation: location)
  }
}
