import CoreMetrics
import Prometheus
import StatlineCore

/// The process's Prometheus registry as `/metrics` serves it: API requests by route and
/// status and their latency, recorded here; the job's series (polls, fetch latency, parse
/// errors, events) recorded by the job into the same registry; and gauges read from the store
/// when scraped (open breakers, each sink's backlog, the store version, the last good poll), so
/// that `statline serve` beside a job in another process reports them too.
public final class ServerMetrics: Sendable {
  public let registry: PrometheusCollectorRegistry
  /// Metrics from swift-metrics' API land in `registry` through this factory.
  public let factory: PrometheusMetricsFactory

  public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
    self.registry = registry
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.defaultDurationHistogramBuckets = [
      .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500),
      .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
      .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
    ]
    self.factory = factory
  }

  /// The server's replaying event streams, once a server serves them (`APIServer`).
  private let replaySource = Locked<EventReplays?>(nil)
  var replays: EventReplays? {
    get { replaySource.withLock { $0 } }
    set { replaySource.withLock { $0 = newValue } }
  }

  /// Each route and status's series, made once (a registry lookup builds strings and takes a
  /// lock: too much for every request).
  private let made = Locked<[RouteStatus: RequestSeries]>([:])

  struct RouteStatus: Hashable {
    var route: String
    var status: Int
  }

  /// A route and status's request counter, and the route's latency.
  struct RequestSeries: Sendable {
    let counter: CoreMetrics.Counter
    let timer: CoreMetrics.Timer

    func record(_ duration: Duration) {
      counter.increment()
      timer.recordNanoseconds(ServerMetrics.nanoseconds(duration))
    }
  }

  func series(route: String, status: Int) -> RequestSeries {
    made.withLock { made in
      let key = RouteStatus(route: route, status: status)
      if let series = made[key] { return series }
      let series = RequestSeries(
        counter: CoreMetrics.Counter(
          label: "statline_api_requests_total", dimensions: [("route", route), ("status", String(status))],
          factory: factory),
        timer: CoreMetrics.Timer(
          label: "statline_api_request_duration_seconds", dimensions: [("route", route)], factory: factory))
      made[key] = series
      return series
    }
  }

  func request(route: String, status: Int, duration: Duration) {
    series(route: route, status: status).record(duration)
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }

  /// The Prometheus text, with the store's gauges read now.
  func scrape(_ reader: any StoreReader) async throws -> [UInt8] {
    let hosts = try await reader.hosts()
    CoreMetrics.Gauge(label: "statline_open_breakers", factory: factory).record(
      hosts.filter { $0.breaker == .open }.count)
    CoreMetrics.Gauge(label: "statline_paused_hosts", factory: factory).record(
      hosts.filter { $0.pausedUntil != nil }.count)
    let newest = try await reader.lastEventSequence()
    for (sink, cursor) in try await reader.sinkCursors() {
      CoreMetrics.Gauge(label: "statline_event_sink_backlog", dimensions: [("sink", sink)], factory: factory)
        .record(newest - cursor)
    }
    CoreMetrics.Gauge(label: "statline_events_stored", factory: factory).record(newest)
    if let replays {
      let counts = replays.stats
      CoreMetrics.Gauge(label: "statline_api_event_replays_running", factory: factory).record(replays.inFlight)
      CoreMetrics.Gauge(label: "statline_api_event_replays_started", factory: factory).record(counts.started)
      CoreMetrics.Gauge(label: "statline_api_event_replays_refused", factory: factory).record(counts.refused)
      CoreMetrics.Gauge(label: "statline_api_event_replays_stalled", factory: factory).record(counts.stalled)
    }
    CoreMetrics.Gauge(label: "statline_store_version", factory: factory).record(try await reader.version())
    if let last = try await reader.lastSuccessfulPoll() {
      CoreMetrics.Gauge(label: "statline_last_successful_poll_timestamp_seconds", factory: factory)
        .record(last.timeIntervalSince1970)
    }
    return registry.emitToBuffer()
  }
}
