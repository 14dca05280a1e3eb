import StatlineCore
import Testing

/// The stores' memory of what they last wrote: it may only ever say "unchanged" for an equal
/// record, and it stays bounded.
@Suite struct RecentRecordsTests {
  static func play(_ sequence: Int, _ text: String, clock: String? = "10:00") -> StoreRecord {
    .play(Play(gameId: "g", sequence: sequence, period: 1, clock: clock, side: .home, type: .goal, text: text))
  }

  static func game(score: Int, clock: String) -> StoreRecord {
    .game(
      Game(
        id: "g", sport: .lacrosseMen, status: .live, period: 2, clock: clock,
        away: TeamLine(team: TeamRef(name: "Iona"), score: 1), home: TeamLine(team: TeamRef(name: "UNC"), score: score))
    )
  }

  @Test func anEqualRecordIsUnchangedWithItsStoredHash() {
    var recent = RecentRecords()
    recent.remember(.play, "g#1", Self.play(1, "Goal by A"), hash: 42)
    #expect(recent.unchangedHash(.play, "g#1", Self.play(1, "Goal by A")) == 42)
  }

  @Test func anyChangeInAValueIsNotUnchanged() {
    var recent = RecentRecords()
    recent.remember(.play, "g#1", Self.play(1, "Goal by A"), hash: 42)
    #expect(recent.unchangedHash(.play, "g#1", Self.play(1, "Goal by B")) == nil)
    #expect(recent.unchangedHash(.play, "g#1", Self.play(1, "Goal by A", clock: nil)) == nil)
    #expect(recent.unchangedHash(.play, "g#2", Self.play(2, "Goal by A")) == nil)
    #expect(recent.unchangedHash(.boxScore, "g#1", Self.play(1, "Goal by A")) == nil)
  }

  @Test func gamesAreKeptWholeForTheScoreDiffer() {
    var recent = RecentRecords()
    recent.remember(.game, "g", Self.game(score: 3, clock: "05:00"), hash: 7)
    #expect(recent.game("g")?.home.score == 3)
    #expect(recent.unchangedHash(.game, "g", Self.game(score: 3, clock: "05:00")) == 7)
    #expect(recent.unchangedHash(.game, "g", Self.game(score: 4, clock: "05:00")) == nil)
    recent.remember(.game, "g", Self.game(score: 4, clock: "04:30"), hash: 8)
    #expect(
      recent.game("g")?.home.score == 4 && recent.unchangedHash(.game, "g", Self.game(score: 3, clock: "05:00")) == nil)
  }

  @Test func itIsClearedWhenFullNeverGrowingPastItsLimit() {
    var recent = RecentRecords(limit: 3)
    for sequence in 1...3 { recent.remember(.play, "g#\(sequence)", Self.play(sequence, "x"), hash: 1) }
    #expect(recent.count == 3)
    recent.remember(.game, "g", Self.game(score: 1, clock: "01:00"), hash: 2)
    #expect(recent.count == 1 && recent.unchangedHash(.play, "g#1", Self.play(1, "x")) == nil)
    #expect(recent.game("g") != nil)
  }

  /// Two games' records interleaved with a team's, as a scoreboard batch lists them.
  static func batch(clock: String, playText: String = "Goal by A") -> Batch {
    func game(_ id: String) -> Game {
      Game(
        id: id, sport: .lacrosseMen, status: .live, period: 2, clock: clock,
        away: TeamLine(team: TeamRef(name: "Iona"), score: 1), home: TeamLine(team: TeamRef(name: "UNC"), score: 2))
    }
    func play(_ gameId: String, _ sequence: Int) -> Play {
      Play(gameId: gameId, sequence: sequence, period: 1, clock: "10:00", side: .home, type: .goal, text: playText)
    }
    let line = PlayerLine(name: "A", stats: ["g": 1])
    return Batch(
      games: [game("s:1"), game("s:2")], teams: [Team(id: "s:unc", name: "UNC")],
      boxScores: [BoxScore(gameId: "s:1", away: TeamBox(), home: TeamBox(players: [line]))],
      plays: [play("s:1", 1), play("s:1", 2), play("s:2", 1)])
  }

  @Test func aBatchIsCheckedAsItsRecordsAreOneByOne() {
    var recent = RecentRecords()
    let batch = Self.batch(clock: "05:00")
    let first = StoreRecord.records(of: batch)
    #expect(first.indices.allSatisfy { StoreRecord.record(at: $0, of: batch) == first[$0] })
    #expect(recent.unchangedHashes(of: batch).allSatisfy { $0 == nil }, "nothing remembered yet")
    for (index, (kind, id, record)) in first.enumerated() { recent.remember(kind, id, record, hash: Int64(index)) }
    #expect(recent.count == first.count)
    #expect(recent.unchangedHashes(of: batch) == first.indices.map { Int64($0) })
    // The clock moved: both games changed, nothing else did.
    let moved = StoreRecord.records(of: Self.batch(clock: "04:30"))
    let expected = moved.enumerated().map { index, row in row.kind == .game ? nil : Int64(index) }
    #expect(recent.unchangedHashes(of: Self.batch(clock: "04:30")) == expected)
    #expect(expected == moved.map { recent.unchangedHash($0.kind, $0.id, $0.record) })
    // A play's text changed: only the plays did.
    let edited = Self.batch(clock: "05:00", playText: "Goal by B")
    #expect(
      recent.unchangedHashes(of: edited)
        == StoreRecord.records(of: edited).enumerated().map { $1.kind == .play ? nil : Int64($0) })
    for (index, (kind, id, record)) in first.enumerated() {
      #expect(recent.rememberedHash(kind, id, record) == Int64(index), "\(kind) \(id)")
    }
    #expect(recent.rememberedHash(.play, "s:1#3", Self.play(3, "x")) == nil)
    #expect(recent.game("s:2")?.clock == "05:00")
  }

  @Test func recordsOfTheSameIdButAnotherKindAreNotConfused() {
    var recent = RecentRecords()
    let records = StoreRecord.records(of: Self.batch(clock: "05:00"))
    for (kind, id, record) in records { recent.remember(kind, id, record, hash: 9) }
    let box = records.first { $0.kind == .boxScore }!
    #expect(recent.unchangedHash(.game, box.id, box.record) == nil, "a box score is not its game")
    #expect(recent.unchangedHash(.team, box.id, box.record) == nil)
    #expect(recent.unchangedHash(.boxScore, "s:2", box.record) == nil, "another game has no box score")
  }
}
