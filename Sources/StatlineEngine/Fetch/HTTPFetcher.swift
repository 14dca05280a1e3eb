import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import StatlineCore

/// Fetches over HTTP with async-http-client: gzip/deflate (with a size limit, so a gzip bomb
/// cannot expand past it), a deadline per request, a maximum body size, and conditional GET
/// headers from the request's validators. Every address is checked (`WebAddress`) before the
/// client sees it, a host name is resolved here and its connection pinned to an address that
/// passed (`PinnedClients`: never a loopback, private or link-local one unless
/// `privateHosts` names the host), and redirects are answered as pages, never followed here:
/// `PoliteFetcher` follows them by `RedirectRules`, as it does politeness.
///
/// Call `shutdown()` before dropping it.
public final class HTTPFetcher: Fetcher {
  public struct Configuration: Sendable, Equatable {
    public var requestTimeout: Duration = .seconds(20)
    public var connectTimeout: Duration = .seconds(5)
    /// Larger bodies (after decompression) are refused.
    public var maximumBodyBytes = 16 << 20
    /// Host names that may resolve to a loopback, private or link-local address (a lab's own
    /// site); any other name that does is refused (`http.privateHosts`).
    public var privateHosts: Set<String> = []
    /// How long a host name's resolution is used before it is asked again.
    public var resolutionLifetime: Duration = .seconds(60)
    public init() {}
  }

  private let client: HTTPClient
  private let pinned: PinnedClients
  private let configuration: Configuration
  private let now: @Sendable () -> Date

  /// - Parameters:
  ///   - resolver: resolves host names before each connection is made (`SystemResolver`).
  ///   - now: stamps `fetchedAt`, and dates resolutions.
  public init(
    configuration: Configuration = Configuration(), resolver: any HostResolver = SystemResolver(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.configuration = configuration
    self.now = now
    client = Self.client(configuration, dnsOverride: [:])
    pinned = PinnedClients(
      resolver: resolver, privateHosts: configuration.privateHosts,
      lifetime: Double(configuration.resolutionLifetime.milliseconds) / 1000,
      idleAfter: 2 * Double(configuration.requestTimeout.milliseconds) / 1000 + 60, now: now
    ) { host, address in Self.client(configuration, dnsOverride: [host: address]) }
  }

  private static func client(_ configuration: Configuration, dnsOverride: [String: String]) -> HTTPClient {
    var settings = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: HTTPClient.Configuration.Timeout(
        connect: .milliseconds(configuration.connectTimeout.milliseconds),
        read: .milliseconds(configuration.requestTimeout.milliseconds)),
      decompression: .enabled(limit: .size(configuration.maximumBodyBytes)))
    settings.dnsOverride = dnsOverride
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
  }

  /// The address a connection to `host` uses among the resolver's `answers` (`PinnedClients`).
  public static func chooseAddress(_ answers: [String], host: String, allowPrivate: Bool) throws(StatlineError)
    -> String
  {
    try PinnedClients.choose(answers, host: host, allowPrivate: allowPrivate, url: "http://\(host)/")
  }

  public func shutdown() async throws {
    try await pinned.shutdown()
    try await client.shutdown()
  }

  public func fetch(_ request: FetchRequest) async throws -> Page {
    let address = try WebAddress(request.url)
    let client = PinnedClients.resolves(address) ? try await pinned.client(for: address) : client
    var http = HTTPClientRequest(url: address.url)
    http.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
    if let authorization = address.basicAuthorization { http.headers.add(name: "Authorization", value: authorization) }
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
      http.headers.replaceOrAdd(name: name, value: value)
    }
    if let etag = request.etag { http.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
    if let lastModified = request.lastModified {
      http.headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified)
    }
    do {
      let deadline = NIODeadline.now() + .milliseconds(configuration.requestTimeout.milliseconds)
      let response = try await client.execute(http, deadline: deadline)
      let body = try await collect(response.body, before: deadline, request: request)
      var headers: [String: String] = [:]
      for (name, value) in response.headers {
        let key = name.lowercased()
        headers[key] = headers[key].map { "\($0), \(value)" } ?? value
      }
      return Page(
        url: request.url, status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView),
        fetchedAt: now())
    } catch is NIOTooManyBytesError {
      throw tooLarge(request)
    } catch let error as NIOHTTPDecompression.DecompressionError {
      if case .limit = error { throw tooLarge(request) }
      throw StatlineError(.undecodable, "the compressed body is corrupt: \(error)", location: request.url)
    } catch let error as HTTPClientError {
      throw StatlineError(
        .network, Self.describe(error), location: request.url, hint: "the scheduler retries with backoff")
    } catch let error as StatlineError {
      throw error
    } catch {
      throw StatlineError(.network, "\(error)", location: request.url, hint: "the scheduler retries with backoff")
    }
  }

  /// The body, refusing more than `maximumBodyBytes` and stopping at `deadline`: the client's
  /// own timeouts end with the head and between reads, so a server that drips its body slowly
  /// would otherwise hold a poll for as long as it likes. The deadline is checked as each chunk
  /// arrives; a silent server is stopped by the read timeout.
  private func collect(_ body: HTTPClientResponse.Body, before deadline: NIODeadline, request: FetchRequest)
    async throws -> ByteBuffer
  {
    var collected = ByteBuffer()
    for try await var chunk in body {
      guard collected.readableBytes + chunk.readableBytes <= limit(request) else {
        throw tooLarge(request)
      }
      collected.writeBuffer(&chunk)
      if NIODeadline.now() > deadline {
        throw StatlineError(
          .network, "the request timed out (no complete answer within \(configuration.requestTimeout))",
          location: request.url, hint: "the scheduler retries with backoff")
      }
    }
    return collected
  }

  /// The request's own cap (a logo's) when it is the smaller.
  private func limit(_ request: FetchRequest) -> Int {
    min(request.maximumBytes ?? .max, configuration.maximumBodyBytes)
  }

  private func tooLarge(_ request: FetchRequest) -> StatlineError {
    guard let own = request.maximumBytes, own < configuration.maximumBodyBytes else {
      return StatlineError(
        .unsafeDocument, "the answer is larger than \(configuration.maximumBodyBytes) bytes", location: request.url,
        hint: "raise http.maxBodySize in the configuration if the page is genuinely this large")
    }
    return StatlineError(
      .unsafeDocument, "the answer is larger than \(own) bytes, the limit of this request", location: request.url)
  }

  static func describe(_ error: HTTPClientError) -> String {
    switch error {
    case .deadlineExceeded, .readTimeout, .connectTimeout: "the request timed out"
    case .redirectLimitReached: "too many redirects"
    case .redirectCycleDetected: "a redirect loop"
    case .remoteConnectionClosed: "the server closed the connection mid-answer"
    default: "\(error)"
    }
  }
}

extension Duration {
  /// Whole milliseconds.
  var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
