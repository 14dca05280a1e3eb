import Foundation
import StatlineCore
import Testing

/// Rankings in every store: a poll's week lands in a poll's commit (PostgreSQL's one
/// statement included), with its teams resolved; the same week again is no change; a corrected
/// week is a change without an event; a new week is a change and one `ranking.published`.
public enum RankingStoreContract {
  public static func check(
    _ make: () async throws -> any ScheduleStore & StoreReader & EventLog,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let store = try await make()
    let location = sourceLocation
    func commit(_ rankings: [Ranking]) async throws -> StoreWrite {
      var state = TargetState(
        target: Target(
          url: "https://www.ncaa.com/rankings/lacrosse-men/d1/inside-lacrosse", source: "ncaa",
          parser: "ncaa-com-rankings", role: .poll),
        nextDue: Date(timeIntervalSince1970: 1_772_917_200))
      state.lastPolled = Date(timeIntervalSince1970: 1_772_913_600)
      return try await store.commit(
        PollCommit(batch: Batch(source: "ncaa", parser: "ncaa-com-rankings", rankings: rankings), states: [state]))
    }
    let first = week("2026-02-23", points: 500)
    #expect(
      try await commit([first]) == StoreWrite(written: 1, unchanged: 0, version: 1, events: [.rankingPublished: 1]),
      sourceLocation: location)
    let stored = try await store.rankings(sport: .lacrosseMen, poll: nil)
    #expect(stored.map(\.id) == [first.id], sourceLocation: location)
    #expect(
      stored.first?.rows.map(\.canonicalTeamId) == ["team:193", nil],
      "Duke resolves; a school no one knows keeps its printed name", sourceLocation: location)
    #expect(
      try await commit([first]) == StoreWrite(written: 0, unchanged: 1, version: 1),
      "the same week published again is no change", sourceLocation: location)
    #expect(
      try await commit([week("2026-02-23", points: 499)]) == StoreWrite(written: 1, unchanged: 0, version: 2),
      "a corrected week is a change, not a new week", sourceLocation: location)
    let second = week("2026-03-02", points: 510)
    #expect(
      try await commit([second]) == StoreWrite(written: 1, unchanged: 0, version: 3, events: [.rankingPublished: 1]),
      sourceLocation: location)
    let changes = try await store.changes(since: 0, limit: 10)
    #expect(changes.map(\.id) == [first.id, second.id], sourceLocation: location)
    #expect(changes.map(\.kind) == [.ranking, .ranking], sourceLocation: location)
    let events = try await store.events(since: 0, limit: 10)
    #expect(events.map(\.type) == [.rankingPublished, .rankingPublished], sourceLocation: location)
    #expect(events.map(\.gameId) == [first.id, second.id], sourceLocation: location)
    #expect(events.last?.ranking?.rows.first?.canonicalTeamId == "team:193", sourceLocation: location)
    #expect(events.last?.details["first"] == "Duke", sourceLocation: location)
    #expect(
      try await store.rankings(sport: .lacrosseMen, poll: poll).map(\.edition) == ["2026-02-23", "2026-03-02"],
      "oldest week first", sourceLocation: location)
    #expect(try await store.rankings(sport: .baseball, poll: nil).isEmpty, sourceLocation: location)
    #expect(try await store.rankings(sport: nil, poll: "ncaa:other").isEmpty, sourceLocation: location)
    var broken = week("2026-03-09", points: 1)
    broken.rows.swapAt(0, 1)
    await #expect(throws: StatlineError.self, sourceLocation: location) { _ = try await commit([broken]) }
    #expect(try await store.version() == 3, "a week out of order writes nothing", sourceLocation: location)
  }

  static let poll = "ncaa:com-lacrosse-men-d1-inside-lacrosse"

  static func week(_ through: String, points: Int) -> Ranking {
    Ranking(
      poll: poll, name: "Inside Lacrosse Men's DI Media Poll", sport: .lacrosseMen, season: 2026, edition: through,
      through: through,
      rows: [
        RankingRow(rank: 1, team: TeamRef(name: "Duke"), points: points, firstPlaceVotes: 20, previous: 1),
        RankingRow(rank: 2, team: TeamRef(name: "Nowhere State"), points: 3),
      ])
  }
}
