import AsyncHTTPClient
import Foundation
import Logging
import StatlineCore
import StatlineEvents
import StatlineLoopback
import StatlineTesting
import Testing

/// A store with a short game day's events: Duke at Virginia goes live and ends 2-1 (13 events:
/// discovered, started, three goals, a tie, periods 1–4 ending and starting, final), and an
/// Army–Navy game is discovered final (event 14).
enum EventDay {
  static func game(_ id: String, _ status: GameStatus, _ away: Int?, _ home: Int?, period: Int? = nil) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: status, period: period,
      away: TeamLine(team: TeamRef(id: id == "g:1" ? "t:duke" : "t:army", name: "Away"), score: away),
      home: TeamLine(team: TeamRef(id: id == "g:1" ? "t:uva" : "t:navy", name: "Home"), score: home))
  }

  static func store() async throws -> MemoryStore {
    let store = MemoryStore()
    for game in [
      game("g:1", .scheduled, nil, nil), game("g:1", .live, 0, 0, period: 1), game("g:1", .live, 1, 0, period: 1),
      game("g:1", .live, 1, 1, period: 2), game("g:1", .final, 2, 1, period: 4),
      game("g:2", .final, 9, 8, period: 4),
    ] {
      _ = try await store.write(Batch(games: [game]))
    }
    return store
  }
}

/// A loopback receiver that checks signatures and can fail its first deliveries.
final class Receiver: Sendable {
  final class State: Sendable {
    let accepted = Locked<[(id: String, body: Data)]>([])
    let failures: Locked<[LoopbackServer.Behavior]>
    /// Failures for one event id, in turn.
    let failuresById: Locked<[String: [LoopbackServer.Behavior]]>
    let badSignatures = Locked(0)
    init(_ failures: [LoopbackServer.Behavior], byId: [String: [LoopbackServer.Behavior]]) {
      self.failures = Locked(failures)
      failuresById = Locked(byId)
    }
  }

  let state: State
  let server: LoopbackServer

  init(
    failFirst: [LoopbackServer.Behavior] = [], failing: [String: [LoopbackServer.Behavior]] = [:], key: [UInt8]
  ) async throws {
    let state = State(failFirst, byId: failing)
    self.state = state
    server = try await LoopbackServer.start { request in
      if let failure = state.failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return failure }
      let id = request.headers["webhook-id"] ?? ""
      let byId = state.failuresById.withLock { failures -> LoopbackServer.Behavior? in
        guard var list = failures[id], !list.isEmpty else { return nil }
        defer { failures[id] = list }
        return list.removeFirst()
      }
      if let byId { return byId }
      let timestamp = Int(request.headers["webhook-timestamp"] ?? "") ?? 0
      guard
        WebhookSignature.verify(
          header: request.headers["webhook-signature"] ?? "", id: id, timestamp: timestamp, body: request.body, key: key
        )
      else {
        state.badSignatures.withLock { $0 += 1 }
        return .respond(status: 401, body: "bad signature")
      }
      state.accepted.withLock { $0.append((id, request.body)) }
      return .respond(status: 204)
    }
  }

  var url: String { server.baseURL + "/hooks/statline" }
  var ids: [String] { state.accepted.withLock { $0.map(\.id) } }
  var bodies: [Data] { state.accepted.withLock { $0.map(\.body) } }
  var badSignatures: Int { state.badSignatures.withLock { $0 } }
}

@Suite(.serialized) struct EventDeliveryTests {
  static let secret = "whsec_" + Data("a-very-secret-key".utf8).base64EncodedString()
  static let key = WebhookSignature.key(fromSecret: secret)!
  static let client = WebhookSink.makeClient()

  static func delivery(_ store: MemoryStore, _ sinks: [any EventSink], clock: SteppingClock) -> EventDelivery<
    SteppingClock
  > {
    var configuration = EventDelivery<SteppingClock>.Configuration()
    configuration.sinkRetry["hook"] = DeliveryRetry(base: .seconds(2), cap: .seconds(60), giveUpAfter: .seconds(600))
    configuration.pageSize = 3
    return EventDelivery(
      log: store, sinks: sinks, clock: clock, configuration: configuration, logger: Logger(label: "test"),
      now: { Date(timeIntervalSince1970: 1_772_900_000) }, random: { 0 })
  }

  /// One request at a time (store order) unless `inFlight` says more.
  static func sink(_ receiver: Receiver, filter: EventFilter = .all, inFlight: Int = 1) throws -> WebhookSink {
    try WebhookSink(
      name: "hook", url: receiver.url, secret: secret, filter: filter, client: client, timeout: .seconds(2),
      maxInFlight: inFlight,
      now: { Date(timeIntervalSince1970: 1_772_900_000) })
  }

  @Test func everyEventArrivesInOrderSignedAfterFailuresAndRetriesAreSpacedAsConfigured() async throws {
    let store = try await EventDay.store()
    let all = try await store.events(since: 0, limit: 100)
    #expect(all.count == 14 && all.last?.gameId == "game:g:2", "the canonical game of g:2")
    let receiver = try await Receiver(
      failFirst: [
        .respond(status: 503), .respond(status: 429, headers: ["Retry-After": "7"]), .reset, .hang,
      ], key: Self.key)
    defer { Task { try? await receiver.server.stop() } }
    let clock = SteppingClock()
    let delivery = Self.delivery(store, [try Self.sink(receiver)], clock: clock)
    let handled = try await delivery.drain(delivery.sinks[0])
    #expect(handled == 14)
    #expect(receiver.ids == all.map(\.id), "every event once, in order")
    #expect(receiver.badSignatures == 0)
    #expect(try receiver.bodies.map(ChangeEvent.decode) == all, "the body is the event's JSON")
    // The first event's tries: 503 → 1 s (half of 2 s, no jitter), 429 → its Retry-After (7 s),
    // reset → 4 s (third try), hang (timed out) → 8 s.
    #expect(clock.sleeps == [.seconds(1), .seconds(7), .seconds(4), .seconds(8)])
    #expect(try await store.cursor(of: "hook") == 14)
    #expect(try await store.deadLetters(sink: nil).isEmpty)
  }

  @Test func aRestartResumesFromTheCursorWithoutRepeating() async throws {
    let store = try await EventDay.store()
    let receiver = try await Receiver(key: Self.key)
    defer { Task { try? await receiver.server.stop() } }
    let first = Self.delivery(store, [try Self.sink(receiver)], clock: SteppingClock())
    #expect(try await first.deliverPage(to: first.sinks[0]) == 3)
    // A new process: a new delivery on the same store.
    let second = Self.delivery(store, [try Self.sink(receiver)], clock: SteppingClock())
    #expect(try await second.drain(second.sinks[0]) == 11)
    #expect(receiver.ids == (1...14).map { "evt_\($0)" })
    #expect(try await second.backlog(of: second.sinks[0]) == 0)
  }

  @Test func aFinalRefusalIsADeadLetterAtOnceAndRedeliveryClearsIt() async throws {
    let store = try await EventDay.store()
    let receiver = try await Receiver(failFirst: [.respond(status: 400, body: "no")], key: Self.key)
    defer { Task { try? await receiver.server.stop() } }
    let clock = SteppingClock()
    let delivery = Self.delivery(store, [try Self.sink(receiver)], clock: clock)
    _ = try await delivery.drain(delivery.sinks[0])
    #expect(clock.sleeps.isEmpty, "a 400 is not retried")
    let letters = try await store.deadLetters(sink: "hook")
    #expect(letters.map(\.event.id) == ["evt_1"] && letters.first?.error.contains("HTTP 400") == true)
    #expect(receiver.ids == (2...14).map { "evt_\($0)" }, "delivery went on")
    #expect(try await delivery.redeliver(delivery.sinks[0]) == 1)
    #expect(try await store.deadLetters(sink: nil).isEmpty)
    #expect(receiver.ids.last == "evt_1")
  }

  @Test func aReceiverDownLongerThanTheGiveUpAgeLeavesDeadLettersAndKeepsGoing() async throws {
    let store = try await EventDay.store()
    let receiver = try await Receiver(failFirst: Array(repeating: .respond(status: 503), count: 40), key: Self.key)
    defer { Task { try? await receiver.server.stop() } }
    let clock = SteppingClock()
    let delivery = Self.delivery(store, [try Self.sink(receiver)], clock: clock)
    _ = try await delivery.drain(delivery.sinks[0])
    let letters = try await store.deadLetters(sink: "hook")
    // 1+2+4+8+16+30+30+… seconds: the 600 s budget ends the first event's tries; the second
    // event takes the rest of the failures and gets through.
    #expect(letters.map(\.event.id) == ["evt_1"] && (letters.first?.attempts ?? 0) > 20)
    #expect(clock.sleeps.allSatisfy { $0 <= .seconds(30) }, "backoff is capped (half of 60 s, no jitter)")
    #expect(receiver.ids == (2...14).map { "evt_\($0)" }, "each event delivered or dead-lettered, none lost")
  }

  @Test func onePassWithoutWaitingStopsAtTheFirstRetryableFailureAndKeepsTheCursor() async throws {
    let store = try await EventDay.store()
    let receiver = try await Receiver(
      failFirst: [.respond(status: 200), .respond(status: 400), .respond(status: 200), .respond(status: 503)],
      key: Self.key)
    defer { Task { try? await receiver.server.stop() } }
    let clock = SteppingClock()
    let delivery = Self.delivery(store, [try Self.sink(receiver)], clock: clock)
    let (handled, stopped) = try await delivery.deliverWithoutWaiting(to: delivery.sinks[0])
    #expect(handled == 3 && stopped?.contains("evt_4: POST") == true && stopped?.contains("HTTP 503") == true)
    #expect(clock.sleeps.isEmpty, "never waits")
    #expect(try await store.cursor(of: "hook") == 3, "evt_4 is tried again next run")
    #expect(try await store.deadLetters(sink: "hook").map(\.event.id) == ["evt_2"], "a 400 is final")
    let (rest, none) = try await delivery.deliverWithoutWaiting(to: delivery.sinks[0])
    #expect(rest == 11 && none == nil && receiver.ids == (4...14).map { "evt_\($0)" })
  }

  @Test func severalInFlightKeepEachGamesOrderAndTheCursorNeverPassesAnUndeliveredEvent() async throws {
    let store = MemoryStore()
    // Six games, each scoring five times, written round robin: events of all games interleave.
    for goals in 0...5 {
      for index in 1...6 {
        var game = EventDay.game("g:\(index)", .live, goals, 0, period: 1)
        game.id = "g:\(index)"
        _ = try await store.write(Batch(games: [game]))
      }
    }
    let all = try await store.events(since: 0, limit: 1_000)
    #expect(all.count == 36)
    // The first event of game 1 hangs once (timed out), then gets through.
    let receiver = try await Receiver(failing: ["evt_1": [.hang]], key: Self.key)
    defer { Task { try? await receiver.server.stop() } }
    let clock = SteppingClock()
    let delivery = Self.delivery(store, [try Self.sink(receiver, inFlight: 4)], clock: clock)
    let first = try await delivery.deliverPage(to: delivery.sinks[0])
    #expect(first == 3)
    #expect(try await delivery.drain(delivery.sinks[0]) == 33)
    let ids = receiver.ids
    #expect(Set(ids) == Set(all.map(\.id)) && ids.count == all.count, "every event once")
    for index in 1...6 {
      let expected = all.filter { $0.gameId == "game:g:\(index)" }.map(\.id)
      #expect(ids.filter(expected.contains) == expected, "game \(index) in order")
    }
    #expect(ids.first != "evt_1", "other games went on while game 1's first event waited")
    #expect(try await store.cursor(of: "hook") == 36)
  }

  @Test func aTeamFilterTakesOnlyThatTeamsGames() async throws {
    let store = try await EventDay.store()
    let receiver = try await Receiver(key: Self.key)
    defer { Task { try? await receiver.server.stop() } }
    let sink = try Self.sink(receiver, filter: EventFilter(kinds: [.final, .discovered], teams: ["t:navy"]))
    let delivery = Self.delivery(store, [sink], clock: SteppingClock())
    #expect(try await delivery.drain(sink) == 14, "every event is handled, matching or not")
    #expect(receiver.ids == ["evt_14"])
    #expect(try await store.cursor(of: "hook") == 14)
  }

  @Test func theJSONLinesSinkWritesOneEventALine() async throws {
    let store = try await EventDay.store()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID()).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sink = try JSONLinesSink(name: "file", path: path)
    let delivery = Self.delivery(store, [sink], clock: SteppingClock())
    _ = try await delivery.drain(sink)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    let stored = try await store.events(since: 0, limit: 100)
    #expect(try lines.map { try ChangeEvent.decode(Data($0.utf8)) } == stored)
    #expect(lines.first?.hasPrefix(#"{"assist":null,"away":"#) == true, "sorted keys, one line")
  }
}
