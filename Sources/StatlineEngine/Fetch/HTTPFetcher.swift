import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import StatlineCore

/// Fetches over HTTP with async-http-client: gzip/deflate (with a size limit, so a gzip bomb
/// cannot expand past it), bounded redirects, a deadline per request, a maximum body size, and
/// conditional GET headers from the request's validators. Politeness is `PoliteFetcher`'s job.
///
/// Call `shutdown()` before dropping it.
public final class HTTPFetcher: Fetcher {
  public struct Configuration: Sendable, Equatable {
    public var requestTimeout: Duration = .seconds(20)
    public var connectTimeout: Duration = .seconds(5)
    /// Larger bodies (after decompression) are refused.
    public var maximumBodyBytes = 16 << 20
    public var maximumRedirects = 5
    public init() {}
  }

  private let client: HTTPClient
  private let configuration: Configuration
  private let now: @Sendable () -> Date

  /// - Parameter now: stamps `fetchedAt`.
  public init(configuration: Configuration = Configuration(), now: @escaping @Sendable () -> Date = { Date() }) {
    self.configuration = configuration
    self.now = now
    client = HTTPClient(
      eventLoopGroupProvider: .singleton,
      configuration: HTTPClient.Configuration(
        redirectConfiguration: .follow(max: configuration.maximumRedirects, allowCycles: false),
        timeout: HTTPClient.Configuration.Timeout(
          connect: .milliseconds(configuration.connectTimeout.milliseconds),
          read: .milliseconds(configuration.requestTimeout.milliseconds)),
        decompression: .enabled(limit: .size(configuration.maximumBodyBytes))))
  }

  public func shutdown() async throws { try await client.shutdown() }

  public func fetch(_ request: FetchRequest) async throws -> Page {
    var http = HTTPClientRequest(url: request.url)
    http.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
      http.headers.replaceOrAdd(name: name, value: value)
    }
    if let etag = request.etag { http.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
    if let lastModified = request.lastModified {
      http.headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified)
    }
    let prepared = http
    do {
      let (response, body) = try await withDeadline(request) {
        let response = try await self.client.execute(
          prepared, timeout: .milliseconds(self.configuration.requestTimeout.milliseconds))
        return (response, try await response.body.collect(upTo: self.configuration.maximumBodyBytes))
      }
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

  /// Runs `body` with `requestTimeout` as a deadline for the whole answer, body included: a
  /// server that drips its body slowly must not hold a poll past the limit.
  private func withDeadline<T: Sendable>(
    _ request: FetchRequest, _ body: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let timeout = configuration.requestTimeout
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let value = first else {
        throw StatlineError(
          .network, "the request timed out (no complete answer within \(timeout))", location: request.url,
          hint: "the scheduler retries with backoff")
      }
      return value
    }
  }

  private func tooLarge(_ request: FetchRequest) -> StatlineError {
    StatlineError(
      .unsafeDocument, "the answer is larger than \(configuration.maximumBodyBytes) bytes", location: request.url,
      hint: "raise maximumBodyBytes if the page is genuinely this large")
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
