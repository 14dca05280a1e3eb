import Foundation
import StatlineCore
import StatlineServer
import Testing

@testable import StatlineApp
@testable import StatlineEngine

/// The job's series, as `statline run --serve` puts them on `/metrics`.
struct JobMetricsTests {
  static func report(_ outcome: TargetState.Outcome, parser: String = "ncaa-stats-contest-pbp", capture: Int64? = nil)
    -> PollReport
  {
    PollReport(
      target: Target(
        url: "https://stats.ncaa.org/contests/1/play_by_play", source: "ncaa", parser: parser, role: .game),
      outcome: outcome, status: 200, error: nil, written: 0, discovered: 0, lag: .zero, capture: capture,
      nextDue: nil, games: [], fetchDuration: .milliseconds(120))
  }

  @Test func pollsFetchLatencyParseErrorsAndEventsAreCounted() {
    let metrics = ServerMetrics()
    let job = JobMetrics(factory: metrics.factory)
    var stored = Self.report(.stored)
    stored.events = [.goal: 2, .leadChange: 1]
    job.record(.polled(stored))
    var partial = Self.report(.stored, capture: 8)
    partial.partial = ["unread: game ncaa:1: play 3 …"]
    job.record(.polled(partial))
    job.record(.polled(Self.report(.unchanged)))
    job.record(.polled(Self.report(.failed, capture: 7)))
    job.record(.polled(Self.report(.failed)))
    job.record(.summary(JobSummary()))
    let text = metrics.registry.emitToString()
    let lines = Set(text.split(separator: "\n").map(String.init))
    #expect(lines.contains(#"statline_polls_total{outcome="stored"} 2"#), "\(text)")
    #expect(lines.contains(#"statline_partial_pages_total{parser="ncaa-stats-contest-pbp"} 1"#), "a partial page")
    #expect(lines.contains(#"statline_polls_total{outcome="failed"} 2"#))
    #expect(
      lines.contains(#"statline_parse_errors_total{parser="ncaa-stats-contest-pbp"} 1"#),
      "only the failure with a captured page is a parse error")
    #expect(lines.contains(#"statline_events_total{type="game.goal"} 2"#))
    #expect(lines.contains(#"statline_events_total{type="game.leadChange"} 1"#))
    #expect(lines.contains(#"statline_fetch_duration_seconds_count{source="ncaa"} 5"#))
    #expect(lines.contains(#"statline_fetch_duration_seconds_bucket{source="ncaa",le="0.25"} 5"#))
  }

  @Test func robotsBoundsAreCountedByBound() {
    let metrics = ServerMetrics()
    let job = JobMetrics(factory: metrics.factory)
    job.record(.robotsBound(.fileCut(origin: "https://a.test", bytes: 14_000_000)))
    job.record(.robotsBound(.rulesIgnored(origin: "https://a.test", count: 9)))
    job.record(.robotsBound(.tooCostly(origin: "https://a.test")))
    job.record(.robotsBound(.tooCostly(origin: "https://a.test")))
    let lines = Set(metrics.registry.emitToString().split(separator: "\n").map(String.init))
    #expect(lines.contains(#"statline_robots_bounds_total{bound="fileCut"} 1"#))
    #expect(lines.contains(#"statline_robots_bounds_total{bound="rulesIgnored"} 1"#))
    #expect(lines.contains(#"statline_robots_bounds_total{bound="tooCostly"} 2"#))
  }
}
