import CoreMetrics
import StatlineCore
import StatlineEngine

/// The job's Prometheus series, from what it reports: polls by outcome, fetch latency by
/// source, parse errors by parser, change events by type.
public struct JobMetrics: Sendable {
  let factory: any MetricsFactory

  public init(factory: any MetricsFactory) { self.factory = factory }

  public func record(_ event: JobEvent) {
    if case .robotsBound(let bound) = event {
      // A host's robots.txt was cut, had rules left out, or was too costly to match a URL.
      Counter(label: "statline_robots_bounds_total", dimensions: [("bound", bound.name)], factory: factory).increment()
    }
    guard case .polled(let report) = event else { return }
    Counter(label: "statline_polls_total", dimensions: [("outcome", report.outcome.rawValue)], factory: factory)
      .increment()
    if report.outcome == .failed, report.capture != nil {
      // A page came back and its parse or validation failed (it was captured for replay).
      Counter(label: "statline_parse_errors_total", dimensions: [("parser", report.target.parser)], factory: factory)
        .increment()
    }
    if report.targetsLeft > 0 {
      // A discovery page asked for more targets than one poll creates (`maxTargetsPerPage`).
      Counter(label: "statline_discovery_left_total", factory: factory).increment(by: report.targetsLeft)
    }
    if report.commitRefused {
      // The store refused the poll's commit: nothing of it was stored.
      Counter(label: "statline_commit_failures_total", factory: factory).increment()
    }
    if !report.partial.isEmpty {
      // The page was stored without the records it names (refused, or plays stored unread).
      Counter(label: "statline_partial_pages_total", dimensions: [("parser", report.target.parser)], factory: factory)
        .increment()
    }
    if let duration = report.fetchDuration {
      Timer(label: "statline_fetch_duration_seconds", dimensions: [("source", report.target.source)], factory: factory)
        .recordNanoseconds(
          duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
    for (type, count) in report.events {
      Counter(label: "statline_events_total", dimensions: [("type", type.rawValue)], factory: factory)
        .increment(by: count)
    }
  }
}
