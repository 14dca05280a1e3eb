import Foundation
import StatlineCore
import Testing

/// A game's answer says it is stale once the target that feeds it has not polled successfully
/// within two of its cadences, with the reason that target gives.
struct FreshnessBoardTests {
  static let now = Date(timeIntervalSince1970: 1_772_913_600)
  static let live = Game(
    id: "ncaa:1", sport: .lacrosseMen, status: .live, period: 3, clock: "04:10",
    away: TeamLine(team: TeamRef(id: "t:1", name: "Army"), score: 5),
    home: TeamLine(team: TeamRef(id: "t:2", name: "Navy"), score: 4))

  static func feeder(
    _ id: String = "game-1", succeeded secondsAgo: Double?, cadence: Double? = 30,
    outcome: TargetState.Outcome = .stored, error: String? = nil, retired: Bool = false, games: [Game] = [live]
  ) -> TargetState {
    var state = TargetState(
      target: Target(url: "https://stats.example.edu/\(id)", source: "ncaa", parser: "p", role: .game),
      nextDue: retired ? nil : now)
    state.lastSucceeded = secondsAgo.map { now.addingTimeInterval(-$0) }
    state.cadence = cadence
    state.outcome = outcome
    state.lastError = error
    state.games = games
    return state
  }

  @Test func aLiveGameIsFreshWithinTwoCadencesAndSaysWhenItTurns() {
    let board = FreshnessBoard(targets: [Self.feeder(succeeded: 20)], hosts: [])
    let changed = Self.now.addingTimeInterval(-300)
    let fresh = board.freshness(of: Self.live, changedAt: changed, now: Self.now)
    #expect(
      !fresh.stale && fresh.reason == nil && fresh.target == "p https://stats.example.edu/game-1" && fresh.cadence == 30
    )
    #expect(fresh.changedAt == changed && fresh.polledAt == Self.now.addingTimeInterval(-20))
    #expect(fresh.staleAt == Self.now.addingTimeInterval(40), "20 s ago + 2 × 30 s")
    let later = board.freshness(of: Self.live, changedAt: changed, now: Self.now.addingTimeInterval(41))
    #expect(later.stale && later.reason == .notPolled && later.staleAt == nil)
    #expect(later.detail?.contains("more than twice its 30 s cadence ago: the job is not polling it") == true)
  }

  @Test func eachReasonComesFromTheFeederThatSucceededLast() {
    let failing = Self.feeder(succeeded: 300, outcome: .failed, error: "HTTP 500 from stats.example.edu")
    #expect(
      FreshnessBoard(targets: [failing], hosts: []).freshness(of: Self.live, changedAt: nil, now: Self.now).reason
        == .failing)
    let blocked = Self.feeder(succeeded: nil, outcome: .blocked, error: "blocked: a bot challenge ('Just a moment...')")
    let answer = FreshnessBoard(targets: [blocked], hosts: []).freshness(of: Self.live, changedAt: nil, now: Self.now)
    #expect(answer.reason == .blocked && answer.detail?.contains("never polled successfully") == true)
    #expect(answer.detail?.contains("it is blocked (blocked;") == true, "\(answer.detail ?? "")")
    #expect(answer.detail?.contains("Just a moment") == false, "the error's text can quote the page")
    let open = HostHealth(
      host: "stats.example.edu", breaker: .open, failures: 5, openUntil: Self.now.addingTimeInterval(60),
      updated: Self.now)
    let broken = FreshnessBoard(targets: [failing], hosts: [open]).freshness(
      of: Self.live, changedAt: nil, now: Self.now)
    #expect(broken.reason == .breakerOpen && broken.detail?.contains("circuit breaker for stats.example.edu") == true)
    let retired = Self.feeder(succeeded: 600, retired: true)
    #expect(
      FreshnessBoard(targets: [retired], hosts: []).freshness(of: Self.live, changedAt: nil, now: Self.now).reason
        == .notPolled)
    // A scoreboard that still succeeds keeps the game fresh while its game page fails.
    let scoreboard = Self.feeder("scoreboard", succeeded: 10, cadence: 30)
    let both = FreshnessBoard(targets: [failing, scoreboard], hosts: []).freshness(
      of: Self.live, changedAt: nil, now: Self.now)
    #expect(!both.stale && both.target == "p https://stats.example.edu/scoreboard")
  }

  @Test func aGameNoTargetPollsIsUnwatchedUnlessItIsSettled() {
    let board = FreshnessBoard(targets: [], hosts: [])
    let live = board.freshness(of: Self.live, changedAt: nil, now: Self.now)
    #expect(live.stale && live.reason == .unwatched && live.target == nil)
    var final = Self.live
    final.status = .final
    #expect(!board.freshness(of: final, changedAt: nil, now: Self.now).stale)
    let old = FreshnessBoard(targets: [Self.feeder(succeeded: 86_400, games: [final])], hosts: [])
    let settled = old.freshness(of: final, changedAt: nil, now: Self.now)
    #expect(!settled.stale && settled.staleAt == nil, "a final score does not go stale")
  }

  @Test func aTargetWithoutARecordedCadenceIsJudgedByTheDefaultPolicy() {
    let board = FreshnessBoard(targets: [Self.feeder(succeeded: 50, cadence: nil)], hosts: [])
    #expect(board.freshness(of: Self.live, changedAt: nil, now: Self.now).cadence == 30)
    var scheduled = Self.live
    scheduled.status = .scheduled
    let idle = FreshnessBoard(targets: [Self.feeder(succeeded: 3_000, cadence: nil, games: [scheduled])], hosts: [])
    #expect(!idle.freshness(of: scheduled, changedAt: nil, now: Self.now).stale, "hourly: 2 h")
  }

  @Test func freshnessIsJSONWithISODates() throws {
    let board = FreshnessBoard(targets: [Self.feeder(succeeded: 20)], hosts: [])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = String(
      decoding: try encoder.encode(board.freshness(of: Self.live, changedAt: nil, now: Self.now)), as: UTF8.self)
    #expect(
      json
        == #"{"cadence":30,"changedAt":null,"detail":null,"polledAt":"2026-03-07T19:59:40Z","reason":null,"stale":false,"target":"p https://stats.example.edu/game-1"}"#
    )
  }
}
