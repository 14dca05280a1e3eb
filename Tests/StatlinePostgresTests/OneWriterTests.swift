import Foundation
import PostgresNIO
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// PostgreSQL keeps one writer (issue 33): every write of records, the locked path's included,
/// goes through `statline_commit`; the locked path only takes the lock and calls it.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct OneWriterTests {
  /// `statline_commit`, counting its calls in `commit_calls`.
  static func countCalls(in store: PostgresStore) async throws {
    try await store.perform("test") { connection in
      for statement in [
        "CREATE TABLE commit_calls (n serial PRIMARY KEY)",
        """
        DO $do$ DECLARE d text; BEGIN
          SELECT pg_get_functiondef(p.oid) INTO d FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE p.proname = 'statline_commit' AND n.nspname = current_schema();
          EXECUTE replace(d, 'BEGIN', 'BEGIN INSERT INTO commit_calls DEFAULT VALUES;');
        END $do$
        """,
      ] {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: store.logger)
      }
    }
  }

  static func calls(in store: PostgresStore) async throws -> Int {
    try await store.perform("test") { connection -> Int in
      let rows = try await connection.query("SELECT count(*)::int FROM commit_calls", logger: store.logger)
      for try await count in rows.decode(Int.self) { return count }
      return 0
    }
  }

  static func game(_ away: Int) -> Game {
    Game(
      id: "g:1", sport: .lacrosseMen, status: .live, period: 1,
      away: TeamLine(team: TeamRef(id: "t:a", name: "Army"), score: away),
      home: TeamLine(team: TeamRef(id: "t:h", name: "Navy"), score: 0))
  }

  @Test func everyWriteOfRecordsGoesThroughStatlineCommit() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      try await Self.countCalls(in: store)
      // `write` takes the lock first and calls the function under it.
      let first = try await store.write(Batch(games: [Self.game(0)]))
      #expect(first.written == 2 && first.events == [.discovered: 1])
      #expect(try await Self.calls(in: store) == 1, "the locked path wrote through statline_commit")
      // A poll commit with a host's breaker to write goes under the locks too.
      let host = HostHealth(host: "example.edu", breaker: .closed, failures: 0, openUntil: nil, updated: Date())
      let second = try await store.commit(PollCommit(batch: Batch(games: [Self.game(1)]), states: [], hosts: [host]))
      #expect(second.written == 2 && second.events[.goal] == 1)
      #expect(try await Self.calls(in: store) == 2)
      // And the optimistic path, as always.
      _ = try await store.commit(PollCommit(batch: Batch(games: [Self.game(2)]), states: []))
      #expect(try await Self.calls(in: store) == 3)
      let events = try await store.events(since: 0, limit: 100)
      #expect(events.map(\.sequence) == Array(1...Int64(events.count)), "gap-free sequences whichever path wrote")
      #expect(events.map(\.id) == events.map { "evt_\($0.sequence)" })
      #expect(try await store.version() == 6 && events.last?.version == 6)
      // Nothing to write: no call, and the version stays.
      _ = try await store.write(Batch(games: [Self.game(2)]))
      #expect(try await Self.calls(in: store) == 3)
      #expect(try await store.version() == 6)
    }
  }
}
