import AsyncHTTPClient
import Foundation
import Logging
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// `/metrics`: Prometheus text with the API's requests by route and status, their latency, and
/// the store's gauges read when scraped.
@Suite(.serialized) struct MetricsTests {
  @Test func metricsCountRequestsByRouteAndStatusAndReadTheStoresGauges() async throws {
    let (path, writer) = try await ReadAPITests.store()
    try await writer.setCursor(1, of: "app-webhook")
    _ = try await writer.commit(
      PollCommit(
        batch: nil, states: [],
        hosts: [
          HostHealth(host: "stats.ncaa.org", breaker: .open, failures: 5, openUntil: nil, updated: ReadAPITests.now)
        ]))
    let reader = try SQLiteStore(readOnlyPath: path)
    let api = ReadAPI(reader: reader, metrics: ServerMetrics(), now: { ReadAPITests.now })
    try await ReadAPITests.withServer(api: api) { base in
      _ = try await ReadAPITests.get(base + "/v1/scoreboard?date=2026-03-07")
      _ = try await ReadAPITests.get(base + "/v1/scoreboard?date=2026-03-07")
      _ = try await ReadAPITests.get(base + "/v1/games/ncaa:404")
      _ = try await ReadAPITests.get(base + "/v1/games/ncaa:1")
      let answer = try await ReadAPITests.get(base + "/metrics")
      #expect(answer.status == 200 && answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
      let text = String(decoding: answer.body, as: UTF8.self)
      let lines = Set(text.split(separator: "\n").map(String.init))
      #expect(lines.contains(#"statline_api_requests_total{route="/v1/scoreboard",status="200"} 2"#), "\(text)")
      #expect(lines.contains(#"statline_api_requests_total{route="/v1/games/{id}",status="404"} 1"#))
      #expect(lines.contains(#"statline_api_requests_total{route="/v1/games/{id}",status="200"} 1"#))
      #expect(lines.contains(#"statline_api_request_duration_seconds_count{route="/v1/scoreboard"} 2"#))
      #expect(text.contains(#"statline_api_request_duration_seconds_bucket{route="/v1/scoreboard",le="+Inf"} 2"#))
      #expect(lines.contains("statline_open_breakers 1.0"))
      #expect(lines.contains(#"statline_event_sink_backlog{sink="app-webhook"} 3.0"#), "4 events, cursor at 1")
      #expect(lines.contains("statline_events_stored 4.0"))
      #expect(text.contains("# TYPE statline_api_requests_total counter"))
    }
  }

  @Test func withoutMetricsTheEndpointIsNotFound() async throws {
    let (path, _) = try await ReadAPITests.store()
    try await ReadAPITests.withServer(path) { base in
      let answer = try await ReadAPITests.get(base + "/metrics")
      #expect(answer.status == 404 && (answer.json["detail"] as? String)?.contains("not enabled") == true)
    }
  }
}
