import AsyncHTTPClient
import Foundation
import Logging
import StatlineCore
import StatlineEvents
import StatlineLoopback
import StatlineSQLite

/// What change events cost: the score differ alone, and signed webhook deliveries to a receiver
/// on loopback that checks every signature.
public enum EventsBenchmark {
  /// A game through `polls` versions, a goal each (periods advance every 10): differ calls and
  /// events derived per second.
  public static func differ(polls: Int) -> (callsPerSecond: Double, eventsPerSecond: Double) {
    var versions: [Game] = []
    var game = Game(
      id: "bench:1", sport: .lacrosseMen, status: .live, period: 1,
      away: TeamLine(team: TeamRef(id: "bench:a", name: "Away"), score: 0),
      home: TeamLine(team: TeamRef(id: "bench:h", name: "Home"), score: 0))
    for poll in 0...polls {
      versions.append(game)
      if poll % 2 == 0 { game.away.score! += 1 } else { game.home.score! += 1 }
      game.period = 1 + (poll + 1) / 10
      game.clock = "\(10 + poll % 5):00"
    }
    let plays = (1...polls).map { index in
      Play(
        gameId: "bench:1", sequence: index, period: 1 + index / 10, clock: "05:00",
        side: index % 2 == 1 ? .away : .home,
        type: .goal, text: "GOAL", player: "Player \(index)", awayScore: versions[index].away.score,
        homeScore: versions[index].home.score)
    }
    let start = CycleBenchmark.cpuSeconds()
    var events = 0
    for index in 1...polls {
      events +=
        ScoreDiffer.events(
          previous: versions[index - 1], current: versions[index], plays: [plays[index - 1]], lastLeader: .away
        ).count
    }
    let seconds = max(CycleBenchmark.cpuSeconds() - start, 1e-9)
    return (Double(polls) / seconds, Double(events) / seconds)
  }

  /// `count` events of a game day in a fresh store, delivered (in order per game, `inFlight` at
  /// once) to a loopback receiver that verifies each signature: deliveries per second (wall
  /// time) and how many signatures checked out.
  public static func webhook(count: Int, games: Int = 20, inFlight: Int = 4, storePath: String) async throws -> (
    perSecond: Double, verified: Int
  ) {
    let store = try SQLiteStore(path: storePath)
    // A game day: `games` games scoring in turn, so their events interleave.
    var day = (1...games).map { index in
      Game(
        id: "bench:\(index)", sport: .lacrosseMen, status: .live, period: 1,
        away: TeamLine(team: TeamRef(id: "bench:a\(index)", name: "Away"), score: 0),
        home: TeamLine(team: TeamRef(id: "bench:h\(index)", name: "Home"), score: 0))
    }
    _ = try await store.write(Batch(games: day))
    var turn = 0
    while try await store.lastEventSequence() < count {
      day[turn % games].away.score! += 1
      _ = try await store.write(Batch(games: [day[turn % games]]))
      turn += 1
    }
    let secret = "whsec_" + Data("bench-secret".utf8).base64EncodedString()
    let key = WebhookSignature.key(fromSecret: secret)!
    let verified = Locked(0)
    let server = try await LoopbackServer.start(ownThread: true) { request in
      let ok = WebhookSignature.verify(
        header: request.headers["webhook-signature"] ?? "", id: request.headers["webhook-id"] ?? "",
        timestamp: Int(request.headers["webhook-timestamp"] ?? "") ?? 0, body: request.body, key: key)
      if ok { verified.withLock { $0 += 1 } }
      return .respond(status: ok ? 204 : 401)
    }
    let client = WebhookSink.makeClient()
    let sink = try WebhookSink(
      name: "bench", url: server.baseURL + "/hook", secret: secret, client: client, maxInFlight: inFlight)
    var logger = Logger(label: "bench")
    logger.logLevel = .error
    let delivery = EventDelivery(log: store, sinks: [sink], clock: ContinuousClock(), logger: logger)
    let start = ContinuousClock.now
    let delivered = try await delivery.drain(sink)
    let elapsed = start.duration(to: .now)
    try await client.shutdown()
    try await server.stop()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Double(delivered) / seconds, verified.withLock { $0 })
  }
}
