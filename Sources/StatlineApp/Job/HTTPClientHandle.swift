import AsyncHTTPClient
import StatlineEvents

/// The HTTP client the webhook sinks share, made only when a webhook is configured and shut
/// down with the job.
final class HTTPClientHandle: Sendable {
  let client = WebhookSink.makeClient()

  func shutdown() async { try? await client.shutdown() }

  /// From synchronous code (a failed start-up): the client has opened no connection yet.
  func shutdownNow() { try? client.syncShutdown() }
}
