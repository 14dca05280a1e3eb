import AsyncHTTPClient
import Foundation
import NIOCore
import StatlineCore

/// POSTs each event's JSON to a URL, signed after the Standard Webhooks specification
/// (`webhook-id` = the event's stable id, `webhook-timestamp`, `webhook-signature`).
///
/// 2xx is accepted. Network errors, timeouts, 408, 429 and 5xx are retryable (with the
/// receiver's `Retry-After`); any other status is final. At most `maxInFlight` requests at once
/// to the receiver (4 by default), never two of one game: events arrive in order per game.
public struct WebhookSink: EventSink {
  public let name: String
  public let filter: EventFilter
  public let url: String
  let key: [UInt8]
  let client: HTTPClient
  let timeout: Duration
  let userAgent: String
  let now: @Sendable () -> Date
  public let maxInFlight: Int

  public init(
    name: String, url: String, secret: String, filter: EventFilter = .all, client: HTTPClient,
    timeout: Duration = .seconds(10), maxInFlight: Int = 4, userAgent: String = "Statline/1.0 (webhooks)",
    now: @escaping @Sendable () -> Date = Date.init
  ) throws(StatlineError) {
    guard let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme),
      parsed.host != nil
    else {
      throw StatlineError(
        .configuration, "sink \(name): url '\(url)' is not an http(s) URL", hint: "write it like https://host/path")
    }
    guard let key = WebhookSignature.key(fromSecret: secret), !key.isEmpty else {
      throw StatlineError(
        .configuration, "sink \(name): the secret is empty or not valid base64 after 'whsec_'",
        hint: "use whsec_ followed by base64 of the key bytes (Standard Webhooks), or any non-empty string")
    }
    self.name = name
    self.url = url
    self.key = key
    self.filter = filter
    self.client = client
    self.timeout = timeout
    self.userAgent = userAgent
    self.now = now
    self.maxInFlight = max(1, maxInFlight)
  }

  public func deliver(_ event: ChangeEvent) async throws {
    let body = try event.jsonLine()
    let timestamp = Int(now().timeIntervalSince1970)
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "user-agent", value: userAgent)
    request.headers.add(name: "webhook-id", value: event.id)
    request.headers.add(name: "webhook-timestamp", value: String(timestamp))
    request.headers.add(
      name: "webhook-signature", value: WebhookSignature.sign(id: event.id, timestamp: timestamp, body: body, key: key))
    request.body = .bytes(ByteBuffer(bytes: body))
    let response: HTTPClientResponse
    do {
      response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.nanoseconds)))
      // Drain the answer (bounded), so the connection can be reused.
      _ = try await response.body.collect(upTo: 64 * 1024)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw EventDeliveryError("POST \(url): \(error)", retryable: true)
    }
    let status = Int(response.status.code)
    if (200..<300).contains(status) { return }
    let retryable = status == 408 || status == 429 || status >= 500
    let after = response.headers.first(name: "retry-after").flatMap(Self.retryAfter)
    throw EventDeliveryError("POST \(url): HTTP \(status)", retryable: retryable, retryAfter: retryable ? after : nil)
  }

  /// `Retry-After` in whole seconds (an HTTP date is not read: the backoff applies).
  static func retryAfter(_ text: String) -> Duration? {
    if let seconds = Int(text.trimmingCharacters(in: .whitespaces)), seconds >= 0 { return .seconds(seconds) }
    return nil
  }
}

extension Duration {
  /// The whole duration in nanoseconds (saturating).
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}
