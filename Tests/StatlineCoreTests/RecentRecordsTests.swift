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
    #expect(recent.unchangedHash(.play, "g#2", Self.play(1, "Goal by A")) == nil)
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
}
