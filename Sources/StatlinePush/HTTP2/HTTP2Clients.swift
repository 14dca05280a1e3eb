import AsyncHTTPClient
import NIOCore
import NIOSSL
import StatlineCore
import Synchronization

/// A small pool of long-lived HTTP/2 connections to one service, used in turn: each
/// `HTTPClient` is one connection per host (async-http-client opens no second one, and keeps a
/// connection's streams within the server's `MAX_CONCURRENT_STREAMS`, queueing the rest). A
/// connection the service will not take again is replaced, and the old one shut down once the
/// requests still on it had their deadline. APNs' per-environment pools and FCM's are this.
public final class HTTP2Clients: Sendable {
  public let size: Int
  /// How long an old connection is kept for the requests still on it.
  let grace: Duration
  private let tls: TLSConfiguration
  private struct Pool {
    var clients: [HTTPClient] = []
    var next = 0
    var opened = 0
  }
  private let pool = Mutex(Pool())

  /// - Parameters:
  ///   - trustRoots: the CA a loopback service is signed by (tests, the demo); nil: the system's.
  public init(size: Int, trustRoots: [NIOSSLCertificate]?, grace: Duration = .seconds(30)) {
    self.size = max(1, size)
    self.grace = grace
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.minimumTLSVersion = .tlsv12
    if let trustRoots { tls.trustRoots = .certificates(trustRoots) }
    tls.applicationProtocols = ["h2"]
    self.tls = tls
  }

  /// The CA certificates of a PEM file (a loopback service's, from the configuration's
  /// `<key>`), or nil for the system's when `file` is nil.
  /// - Throws: a configuration error naming `key` and the file.
  public static func trustRoots(_ file: String?, key: String) throws(StatlineError) -> [NIOSSLCertificate]? {
    guard let file else { return nil }
    let roots: [NIOSSLCertificate]
    do {
      roots = try NIOSSLCertificate.fromPEMFile(file)
    } catch {
      throw StatlineError(
        .configuration, "\(key): cannot read CA certificates from it: \(error)", location: file,
        hint: "a PEM file of CA certificates, or leave \(key.split(separator: ".").last ?? "it") out for the system's")
    }
    guard !roots.isEmpty else {
      throw StatlineError(
        .configuration, "\(key): the file holds no certificate", location: file, hint: "a PEM file of CA certificates")
    }
    return roots
  }

  /// Connections opened so far (replacements included).
  public var opened: Int { pool.withLock { $0.opened } }

  /// The next connection, and its place (to replace it).
  func take() -> (HTTPClient, Int) {
    pool.withLock { pool in
      while pool.clients.count < size {
        pool.clients.append(makeClient())
        pool.opened += 1
      }
      pool.next &+= 1
      let index = pool.next % pool.clients.count
      return (pool.clients[index], index)
    }
  }

  /// Replaces the connection at `index` if it is still `client`.
  func replace(_ index: Int, _ client: HTTPClient) {
    let old: HTTPClient? = pool.withLock { pool in
      guard index < pool.clients.count, pool.clients[index] === client else { return nil }
      pool.clients[index] = makeClient()
      pool.opened += 1
      return client
    }
    guard let old else { return }
    let grace = grace
    Task {
      try? await Task.sleep(for: grace)
      try? await old.shutdown()
    }
  }

  /// Closes every connection.
  public func shutdown() async {
    let clients = pool.withLock { pool in
      defer { pool.clients = [] }
      return pool.clients
    }
    for client in clients { try? await client.shutdown() }
  }

  private func makeClient() -> HTTPClient {
    var configuration = HTTPClient.Configuration()
    configuration.tlsConfiguration = tls
    configuration.httpVersion = .automatic
    configuration.redirectConfiguration = .disallow
    configuration.connectionPool = .init(idleTimeout: .hours(1))
    configuration.timeout = .init(connect: .seconds(10))
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }
}

extension Duration {
  /// An async-http-client deadline this far from now.
  var deadlineFromNow: NIODeadline {
    .now() + .seconds(components.seconds) + .nanoseconds(components.attoseconds / 1_000_000_000)
  }
}
