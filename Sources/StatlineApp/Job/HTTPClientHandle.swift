import AsyncHTTPClient

/// The HTTP client the webhook sinks share, made only when a webhook is configured and shut
/// down with the job.
final class HTTPClientHandle: Sendable {
  let client = HTTPClient(eventLoopGroupProvider: .singleton)

  func shutdown() async { try? await client.shutdown() }

  /// From synchronous code (a failed start-up): the client has opened no connection yet.
  func shutdownNow() { try? client.syncShutdown() }
}
