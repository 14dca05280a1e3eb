import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import StatlineCore
import Synchronization

/// The connections to APNs: per environment a small pool of `HTTPClient`s, each one long-lived
/// HTTP/2 connection (async-http-client opens one per host per client), used in turn. A
/// connection APNs will not take again (after `ExpiredProviderToken` or
/// `TooManyProviderTokenUpdates`) is replaced, and the old one shut down once its requests had
/// their deadline.
public final class APNsConnections: Sendable {
  /// Where each environment is.
  public struct Endpoints: Sendable, Equatable {
    public var production: String
    public var sandbox: String

    public static let apple = Endpoints(
      production: "https://api.push.apple.com", sandbox: "https://api.sandbox.push.apple.com")

    public init(production: String, sandbox: String) {
      self.production = production
      self.sandbox = sandbox
    }

    public func base(_ environment: Device.Environment) -> String {
      environment == .production ? production : sandbox
    }
  }

  public let endpoints: Endpoints
  public let perEnvironment: Int
  /// How long an old connection is kept for the requests still on it.
  let grace: Duration
  private let tls: TLSConfiguration
  private struct Pool {
    var clients: [Device.Environment: [HTTPClient]] = [:]
    var next = 0
    var opened = 0
  }
  private let pool = Mutex(Pool())

  /// - Parameters:
  ///   - trustRoots: the CA a loopback APNs is signed by (tests, the demo); nil: the system's.
  public init(
    endpoints: Endpoints = .apple, perEnvironment: Int = 2, trustRoots: [NIOSSLCertificate]? = nil,
    grace: Duration = .seconds(30)
  ) {
    self.endpoints = endpoints
    self.perEnvironment = max(1, perEnvironment)
    self.grace = grace
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.minimumTLSVersion = .tlsv12
    if let trustRoots { tls.trustRoots = .certificates(trustRoots) }
    tls.applicationProtocols = ["h2"]
    self.tls = tls
  }

  /// With the CA certificates of a PEM file as the trust roots (a loopback APNs's, from the
  /// configuration's `push.apns.trustRoots`), or the system's when `trustRootsFile` is nil.
  public convenience init(endpoints: Endpoints, perEnvironment: Int, trustRootsFile: String?) throws(StatlineError) {
    var roots: [NIOSSLCertificate]?
    if let trustRootsFile {
      do {
        roots = try NIOSSLCertificate.fromPEMFile(trustRootsFile)
      } catch {
        throw StatlineError(
          .configuration, "push.apns.trustRoots: cannot read CA certificates from it: \(error)",
          location: trustRootsFile, hint: "a PEM file of CA certificates, or leave trustRoots out for the system's")
      }
      guard roots?.isEmpty == false else {
        throw StatlineError(
          .configuration, "push.apns.trustRoots: the file holds no certificate", location: trustRootsFile,
          hint: "a PEM file of CA certificates")
      }
    }
    self.init(endpoints: endpoints, perEnvironment: perEnvironment, trustRoots: roots)
  }

  /// Connections opened so far (replacements included).
  public var opened: Int { pool.withLock { $0.opened } }

  /// The next connection for `environment`, and its place (to replace it).
  func take(_ environment: Device.Environment) -> (HTTPClient, Int) {
    pool.withLock { pool in
      var clients = pool.clients[environment] ?? []
      while clients.count < perEnvironment {
        clients.append(makeClient())
        pool.opened += 1
      }
      pool.clients[environment] = clients
      pool.next &+= 1
      let index = pool.next % clients.count
      return (clients[index], index)
    }
  }

  /// Replaces the connection at `index` if it is still `client`.
  func replace(_ environment: Device.Environment, _ index: Int, _ client: HTTPClient) {
    let old: HTTPClient? = pool.withLock { pool in
      guard var clients = pool.clients[environment], index < clients.count, clients[index] === client else {
        return nil
      }
      clients[index] = makeClient()
      pool.opened += 1
      pool.clients[environment] = clients
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
      defer { pool.clients = [:] }
      return pool.clients.values.flatMap { $0 }
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
