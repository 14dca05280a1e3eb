import AsyncHTTPClient
import Foundation
import NIOCore
import StatlineCore

/// POSTs each event's JSON to a URL, signed after the Standard Webhooks specification
/// (`webhook-id` = the event's stable id, `webhook-timestamp`, `webhook-signature`).
///
/// 2xx is accepted. Network errors, timeouts, 408, 429, 5xx and redirects are retryable (with
/// the receiver's `Retry-After`); any other status is final. A redirect is never followed (the
/// signed body is not posted anywhere but the configured receiver): a 3xx is a failed delivery,
/// retried and then a dead letter. Credentials in the URL (`https://user:pass@host/hook`) are
/// sent as `Authorization: Basic` and never printed. At most `maxInFlight` requests at once to
/// the receiver (4 by default), never two of one game: events arrive in order per game.
public struct WebhookSink: EventSink {
  public let name: String
  public let filter: EventFilter
  /// The receiver's address without its credentials: what messages show.
  public let url: String
  let authorization: String?
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
    let address: WebAddress
    do {
      address = try WebAddress(url)
    } catch {
      throw StatlineError(.configuration, "sink \(name): \(error.reason)", hint: error.hint)
    }
    guard let key = WebhookSignature.key(fromSecret: secret), !key.isEmpty else {
      throw StatlineError(
        .configuration, "sink \(name): the secret is empty or not valid base64 after 'whsec_'",
        hint: "use whsec_ followed by base64 of the key bytes (Standard Webhooks), or any non-empty string")
    }
    self.name = name
    self.url = address.url
    self.authorization = address.basicAuthorization
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
    var request = HTTPClientRequest(url: url)  // `url` was checked by WebAddress, without credentials
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "user-agent", value: userAgent)
    if let authorization { request.headers.add(name: "authorization", value: authorization) }
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
      throw EventDeliveryError(
        "POST \(WebAddress.redacted(url)): \(WebAddress.redacted(String(describing: error)))", retryable: true)
    }
    let status = Int(response.status.code)
    if (200..<300).contains(status) { return }
    if (300..<400).contains(status) {
      throw EventDeliveryError(
        "POST \(WebAddress.redacted(url)): HTTP \(status), a redirect, which a webhook never follows (point the sink at the receiver's own address)",
        retryable: true)
    }
    let retryable = status == 408 || status == 429 || status >= 500
    let after = response.headers.first(name: "retry-after").flatMap(Self.retryAfter)
    throw EventDeliveryError(
      "POST \(WebAddress.redacted(url)): HTTP \(status)", retryable: retryable, retryAfter: retryable ? after : nil)
  }

  /// A client for webhook sinks: it follows no redirect (async-http-client's default follows
  /// five, which would re-post the signed body wherever a receiver pointed).
  public static func makeClient() -> HTTPClient {
    HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
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
