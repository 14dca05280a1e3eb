import Hummingbird
import NIOCore
import StatlineCore

/// What holds the event stream against clients that ask for the past (`since=0`, an old
/// `Last-Event-ID`) and then do not read it. A stream that starts more than one page behind the
/// newest event is a *replay*:
/// - at most `ConnectionLimits.maximumReplays` run at once; one more is answered 503 with
///   `Retry-After` (a short catch-up, a page or less, is never refused: a reconnect after a
///   blip must not be turned away);
/// - replays read the store one page at a time among them all (the lane), so the live tail and
///   every other route wait behind at most one replay page, however many replays run;
/// - a replay writes a page at a time, and a page the client has not taken within
///   `ConnectionLimits.replayStallTimeout` ends the stream (the client reconnects with
///   `Last-Event-ID` when it reads again); so a replay holds at most a page in the server's
///   memory, and its place for at most that long without progress.
public final class EventReplays: Sendable {
  let limits: ConnectionLimits
  /// The places taken: by a replay's body (`claim`), or waiting for it (an answer whose body
  /// never ran, its client gone before, gives its place back after the stall timeout).
  private let places = Locked(Places())

  struct Places {
    var running = 0
    var next = 0
    var unclaimed: [Int: ContinuousClock.Instant] = [:]
  }
  private let lane = ReadLane()
  private let counts = Locked(Counts())

  /// What the replays have done, for `/metrics` and tests.
  public struct Counts: Sendable, Equatable {
    public var started = 0
    public var refused = 0
    public var stalled = 0
  }

  /// The monotonic time a place is taken at (injected: tests step it).
  let now: @Sendable () -> ContinuousClock.Instant

  public init(limits: ConnectionLimits, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
    self.limits = limits
    self.now = now
  }

  public var stats: Counts { counts.withLock { $0 } }
  /// Replays running now.
  public var inFlight: Int { places.withLock { $0.running } }

  /// True when a stream starting `behind` events back is a replay (more than one page).
  static func isReplay(behind: Int64) -> Bool { behind > Int64(EventStreamBody.page) }

  /// Takes a replay's place for its answer, or says there is none (and counts the refusal):
  /// the ticket its body claims.
  func enter() -> Int? {
    let now = now()
    let stall = limits.replayStallTimeout
    let ticket = places.withLock { places -> Int? in
      for (ticket, taken) in places.unclaimed where now - taken > stall {
        places.unclaimed[ticket] = nil
        places.running -= 1
      }
      guard places.running < limits.maximumReplays else { return nil }
      places.running += 1
      places.next += 1
      places.unclaimed[places.next] = now
      return places.next
    }
    counts.withLock { counts in
      if ticket != nil { counts.started += 1 } else { counts.refused += 1 }
    }
    return ticket
  }

  /// The replay's body has started: its place is held until `leave`.
  func claim(_ ticket: Int) {
    places.withLock { places in
      // Given back already (the body started later than the stall timeout): taken again.
      if places.unclaimed.removeValue(forKey: ticket) == nil { places.running += 1 }
    }
  }

  func leave() { places.withLock { $0.running -= 1 } }

  /// The answer to a replay beyond the limit: 503, try again in a few seconds.
  func refusal(path: String) -> APIResponse {
    var problem = Problem(
      title: "Too many replays", status: 503,
      detail:
        "\(limits.maximumReplays) event streams are reading the past already; reconnect later with the same cursor, or without one to follow new events only"
    )
    problem.retryAfter = 5
    return problem.response(path: path)
  }

  /// One page of a replay, read in the lane.
  func read<Value: Sendable>(_ body: @Sendable () async throws -> Value) async throws -> Value {
    try await lane.run(body)
  }

  /// Writes `buffer`, closing `channel` when the client has not taken it within the stall
  /// timeout (the blocked write then fails and the stream ends).
  func write(_ buffer: ByteBuffer, to writer: inout any ResponseBodyWriter, channel: any Channel) async throws {
    let stall = limits.replayStallTimeout
    let watchdog = Task { [self] in
      try await Task.sleep(for: stall)
      counts.withLock { $0.stalled += 1 }
      channel.close(promise: nil)
    }
    defer { watchdog.cancel() }
    try await writer.write(buffer)
  }
}

/// Runs one body at a time, the others waiting in order of arrival.
actor ReadLane {
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func run<Value: Sendable>(_ body: @Sendable () async throws -> Value) async throws -> Value {
    if busy {
      await withCheckedContinuation { waiting.append($0) }
    }
    busy = true
    defer {
      if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
    return try await body()
  }
}
