import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

/// Kills `statline run` with SIGKILL at random moments while it writes, and checks that the
/// store is intact, holds no half-written batch, and that the next run resumes the schedule.
@Suite(.serialized) struct CrashTests {
  @Test func sigkillAtTwentyRandomMomentsLeavesAConsistentStoreAndTheScheduleResumes() async throws {
    let folder = try JobCommandTests.folder()
    let day = DemoGameDay()
    let start = ContinuousClock.now
    // The game day runs 120× faster than real time from minute 10, so pages keep changing.
    let server = try await LoopbackServer.start { request in
      day.route(request, seconds: 600 + JobClockSeconds.since(start) * 120)
    }
    defer { Task { try? await server.stop() } }
    let config = try JobCommandTests.config(
      server, in: folder,
      extra: """
        policy: { live: 200ms, imminent: 200ms, idle: 200ms, finalInterval: 200ms, failureBase: 200ms, jitter: 0 }
        """)
    let storePath = folder.appendingPathComponent("store.sqlite").path
    var generator = SystemRandomNumberGenerator()
    var versions: [Int64] = []
    for round in 0..<20 {
      let process = Process()
      process.executableURL = CommandRunner.executable
      process.arguments = ["run", "--config", config.path, "--log-level", "error"]
      process.standardError = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      try await Task.sleep(for: .milliseconds(Int.random(in: 250...1200, using: &generator)))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal, "round \(round)")

      let store = try SQLiteStore(path: storePath)
      #expect(try await store.integrityCheck() == "ok", "round \(round)")
      try await Self.expectNoHalfWrittenBatch(store, round: round)
      try await Self.expectEventsAgreeWithRecords(store, round: round)
      versions.append(try await store.version())
      let targets = try await store.targets()
      #expect(Set(targets.map(\.id)).count == targets.count)
    }
    #expect(versions.last ?? 0 > versions.first ?? 0, "the job went on writing across restarts: \(versions)")
    let goals = try await SQLiteStore(path: storePath).events(since: 0, limit: 100_000).filter { $0.type == .goal }
    #expect(!goals.isEmpty, "the killed runs derived goal events, so the checks above had goals to check")

    // The next run resumes: the targets it knows are polled again and nothing is lost.
    let before = try await SQLiteStore(path: storePath).targets()
    let resumed = try CommandRunner.run(["once", "--config", config.path])
    #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
    let after = try await SQLiteStore(path: storePath).targets()
    #expect(after.count >= before.count)
    #expect(after.contains { $0.target.role == .game }, "discovered game targets survived the kills")
  }

  /// Every game's box score adds up to its score, and its plays' running score ends at it:
  /// a batch is written whole or not at all.
  static func expectNoHalfWrittenBatch(_ store: SQLiteStore, round: Int) async throws {
    var games: [String: Game] = [:]
    var boxes: [String: BoxScore] = [:]
    var lastGoal: [String: Play] = [:]
    for change in try await store.changes(since: 0, limit: 1_000_000) {
      switch change.record {
      case .game(let game): games[game.id] = game
      case .boxScore(let box): boxes[box.gameId] = box
      case .play(let play) where play.type == .goal || play.type == .score:
        if (lastGoal[play.gameId]?.sequence ?? -1) < play.sequence { lastGoal[play.gameId] = play }
      default: break
      }
    }
    // Box scores and plays are the source game's; the game is its canonical one.
    var canonical: [String: Game] = [:]
    for game in games.values { for source in game.sources ?? [] { canonical[source] = game } }
    for (id, box) in boxes {
      let game = try #require(canonical[id])
      for side in [Side.away, .home] {
        // The sport's scoring column: goals, points, runs.
        let key = game.sport.profile?.scoringKey ?? StatKey.goals
        let goals = box[side].players.compactMap { $0.stats[key] }.reduce(0, +)
        #expect(
          goals == game[side].score, "round \(round): \(id) \(side) box \(goals) vs score \(game[side].score ?? -1)")
      }
      if let goal = lastGoal[id] {
        #expect(goal.awayScore == game.away.score && goal.homeScore == game.home.score, "round \(round): \(id) plays")
      }
    }
  }
}

extension CrashTests {
  /// Events were written with their batches: numbered without gaps, and every game followed
  /// live from 0-0 has exactly one goal event per stored goal (per side, each running score
  /// once). A game the killed runs saw only scheduled and then final (the game day runs 120×
  /// fast) gets `game.final` alone, by the differ's rule: no goal alerts after the whistle.
  static func expectEventsAgreeWithRecords(_ store: SQLiteStore, round: Int) async throws {
    let events = try await store.events(since: 0, limit: 1_000_000)
    #expect(events.map(\.sequence) == (0..<Int64(events.count)).map { $0 + 1 }, "round \(round): numbered without gaps")
    var games: [String: Game] = [:]
    var goalPlays: [String: [Side: Int]] = [:]
    for change in try await store.changes(since: 0, limit: 1_000_000) {
      switch change.record {
      case .game(let game): games[game.id] = game
      case .play(let play) where play.type == .goal:
        if let side = play.side { goalPlays[play.gameId, default: [:]][side, default: 0] += 1 }
      default: break
      }
    }
    // Plays are the source game's: counted for its canonical game (the demo's feeds are one per game).
    for game in games.values {
      for source in game.sources ?? [] where source != game.id {
        if let plays = goalPlays.removeValue(forKey: source) { goalPlays[game.id] = plays }
      }
    }
    var goals: [String: [ChangeEvent]] = [:]
    var firstSeen: [String: ChangeEvent] = [:]
    var types: [String: [ChangeEvent.Kind]] = [:]
    for event in events {
      if event.type == .discovered { firstSeen[event.gameId] = event }
      if event.type == .goal || event.type == .scored { goals[event.gameId, default: []].append(event) }
      types[event.gameId, default: []].append(event.type)
    }
    #expect(!events.contains { $0.type == .corrected }, "round \(round): the day has no corrections")
    for (id, game) in games {
      guard let first = firstSeen[id], (first.awayScore ?? 0) == 0, (first.homeScore ?? 0) == 0 else { continue }
      let scored = goals[id] ?? []
      let seen = types[id] ?? []
      if first.status == .scheduled, !seen.contains(.started) {
        #expect(scored.isEmpty, "round \(round): \(id) never seen live, yet goal events: \(seen)")
        if game.status == .final { #expect(seen.filter { $0 == .final }.count == 1, "round \(round): \(id) \(seen)") }
        continue
      }
      for side in [Side.away, .home] {
        // A goal counts one; a basket or a run-scoring play its points.
        let count = scored.filter { $0.side == side }.map { $0.points ?? 1 }.reduce(0, +)
        #expect(count == game[side].score ?? 0, "round \(round): \(id) \(side) scoring events \(count) vs score")
        if let plays = goalPlays[id], game.sport.profile?.countsGoals ?? true {
          #expect(count == plays[side] ?? 0, "round \(round): \(id) \(side) goal events vs stored goal plays")
        }
      }
      let scores = scored.map { "\($0.awayScore ?? -1)-\($0.homeScore ?? -1)" }
      #expect(Set(scores).count == scores.count, "round \(round): \(id) a running score reached twice: \(scores)")
    }
  }
}

enum JobClockSeconds {
  static func since(_ start: ContinuousClock.Instant) -> Double {
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}
