import StatlineCore

/// The live side of `/v1/events/stream`: one loop reads new events from the store and hands
/// them to every connected client, each through a bounded buffer. A client whose buffer fills
/// (it cannot keep up) is cut off, never allowed to grow the server's memory: it reconnects with
/// `Last-Event-ID` and catches up from the store. The loop runs while anyone listens.
public actor EventHub {
  public struct Configuration: Sendable {
    /// How often the store is asked for new events another process wrote (`statline serve`
    /// beside a job; the job's own commits wake the hub at once when it has their `bell`).
    public var pollInterval: Duration = .milliseconds(250)
    /// A comment line to every client this often, so proxies keep the connection open.
    public var heartbeat: Duration = .seconds(15)
    /// Events (and heartbeats) a client may have waiting before it is disconnected.
    public var clientBuffer = 1_024
    /// Events read from the store at once.
    public var page = 500

    public init() {}
  }

  /// What a client is sent.
  public enum Item: Sendable, Equatable {
    case event(ChangeEvent)
    case heartbeat
  }

  /// One client's feed. `overflowed` says why it ended early.
  public final class Subscription: Sendable {
    public let id: Int
    public let items: AsyncStream<Item>
    private let overflow = Locked(false)
    /// Closes the client's connection (a writer blocked on it fails at once).
    let cutOff: @Sendable () -> Void
    /// True when the client was cut off for not keeping up.
    public var overflowed: Bool { overflow.withLock { $0 } }

    func overflowNow() {
      overflow.withLock { $0 = true }
      cutOff()
    }

    init(id: Int, items: AsyncStream<Item>, cutOff: @escaping @Sendable () -> Void) {
      self.id = id
      self.items = items
      self.cutOff = cutOff
    }
  }

  /// What the hub has done, for tests and metrics.
  public struct Statistics: Sendable, Equatable {
    public var subscribers = 0
    public var connected = 0
    public var disconnectedSlow = 0
    public var delivered = 0
  }

  let reader: any StoreReader
  public let configuration: Configuration
  /// Waits between reads (injected: tests step it).
  let sleep: @Sendable (Duration) async throws -> Void
  /// The writing store's bell, when the job runs in this process (`run --serve`).
  let bell: EventBell?
  private var continuations: [Int: (AsyncStream<Item>.Continuation, Subscription)] = [:]
  private var nextId = 0
  private var loop: Task<Void, Never>?
  /// The loop's starting point: the store's newest event when the first client came. A client
  /// reads the store past it itself; the hub sends what comes after.
  private var start: Task<Int64, Never>?
  private var statistics = Statistics()

  public init(
    reader: any StoreReader, configuration: Configuration = Configuration(), bell: EventBell? = nil,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await ContinuousClock().sleep(for: $0) }
  ) {
    self.reader = reader
    self.bell = bell
    self.configuration = configuration
    self.sleep = sleep
  }

  public var stats: Statistics {
    var stats = statistics
    stats.subscribers = continuations.count
    return stats
  }

  /// A new client's feed: every event stored after this call returns, until `unsubscribe`.
  /// `cutOff` closes the client's connection when its buffer overflows. The hub's starting
  /// point is read before it returns, so an event stored after it is never skipped.
  public func subscribe(cutOff: @escaping @Sendable () -> Void = {}) async -> Subscription {
    nextId += 1
    let (stream, continuation) = AsyncStream.makeStream(
      of: Item.self, bufferingPolicy: .bufferingOldest(configuration.clientBuffer))
    let subscription = Subscription(id: nextId, items: stream, cutOff: cutOff)
    continuations[nextId] = (continuation, subscription)
    statistics.connected += 1
    let id = nextId
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      Task { await self.unsubscribe(id) }
    }
    if loop == nil {
      let reader = reader
      let first = Task { (try? await reader.lastEventSequence()) ?? 0 }
      start = first
      loop = Task { await self.run(from: await first.value) }
    }
    _ = await start?.value
    return subscription
  }

  public func unsubscribe(_ id: Int) {
    guard let (continuation, _) = continuations.removeValue(forKey: id) else { return }
    continuation.finish()
    if continuations.isEmpty {
      loop?.cancel()
      loop = nil
      start = nil
    }
  }

  /// Ends every feed (graceful shutdown).
  public func finishAll() {
    for (continuation, _) in continuations.values { continuation.finish() }
    continuations.removeAll()
    loop?.cancel()
    loop = nil
    start = nil
  }

  private func broadcast(_ item: Item) {
    for (id, (continuation, subscription)) in continuations {
      if case .dropped = continuation.yield(item) {
        subscription.overflowNow()
        statistics.disconnectedSlow += 1
        continuations[id] = nil
        continuation.finish()
      } else if case .event = item {
        statistics.delivered += 1
      }
    }
  }

  /// Reads new events and heartbeats until no one listens.
  private func run(from start: Int64) async {
    var cursor = start
    var sinceBeat = Duration.zero
    while !Task.isCancelled {
      let seen = bell?.rings ?? 0
      if let events = try? await reader.events(since: cursor, limit: configuration.page) {
        for event in events { broadcast(.event(event)) }
        cursor = events.last?.sequence ?? cursor
        if events.count == configuration.page { continue }
      }
      if sinceBeat >= configuration.heartbeat {
        broadcast(.heartbeat)
        sinceBeat = .zero
      }
      let wait = min(configuration.pollInterval, configuration.heartbeat)
      let sleep = sleep
      do {
        // Woken early by the bell, the wait does not count toward the heartbeat: the events
        // sent keep the connection open themselves.
        if let bell {
          if try await !bell.wait(after: seen, orSleep: { try await sleep(wait) }) { sinceBeat += wait }
        } else {
          try await sleep(wait)
          sinceBeat += wait
        }
      } catch { return }
    }
  }
}
