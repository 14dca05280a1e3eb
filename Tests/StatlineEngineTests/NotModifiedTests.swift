import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// A 304 answers a conditional request only: to a request that named no version it is the
/// site's protocol error, never "unchanged".
@Suite struct NotModifiedTests {
  static let target = PollerTimingTests.target

  static func poll(_ state: TargetState) async throws -> Poller.Result {
    let poller = Poller(
      fetcher: ScriptedFetcher([Self.target.url: [.page(status: 304, headers: ["ETag": "\"v2\""])]]),
      registry: try SourceRegistry(plugins: [TestSource.plugin]), captures: nil)
    return await poller.poll(state, now: { PollerTimingTests.t0 })
  }

  @Test func aNotModifiedToAnUnconditionalRequestIsAFailure() async throws {
    let result = try await Self.poll(TargetState(target: Self.target, nextDue: PollerTimingTests.t0))
    guard case .failed(let error, let blocked) = result.kind else {
      Issue.record("a 304 to a first request was taken as \(result.kind)")
      return
    }
    #expect(!blocked && result.status == 304)
    #expect(error.reason.contains("304 Not Modified to a request that named no version"), "\(error)")
  }

  @Test func aNotModifiedToAConditionalRequestIsUnchanged() async throws {
    var state = TargetState(target: Self.target, nextDue: PollerTimingTests.t0)
    state.etag = "\"v1\""
    let result = try await Self.poll(state)
    guard case .unchanged = result.kind else {
      Issue.record("a 304 to a conditional request was taken as \(result.kind)")
      return
    }
    #expect(result.etag == "\"v2\"", "the answer's validator is kept")
  }
}
