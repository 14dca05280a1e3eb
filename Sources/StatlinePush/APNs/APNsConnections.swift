import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import StatlineCore

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
  private let pools: [Device.Environment: HTTP2Clients]

  /// - Parameters:
  ///   - trustRoots: the CA a loopback APNs is signed by (tests, the demo); nil: the system's.
  public init(
    endpoints: Endpoints = .apple, perEnvironment: Int = 2, trustRoots: [NIOSSLCertificate]? = nil,
    grace: Duration = .seconds(30)
  ) {
    self.endpoints = endpoints
    self.perEnvironment = max(1, perEnvironment)
    var pools: [Device.Environment: HTTP2Clients] = [:]
    for environment in Device.Environment.allCases {
      pools[environment] = HTTP2Clients(size: perEnvironment, trustRoots: trustRoots, grace: grace)
    }
    self.pools = pools
  }

  /// With the CA certificates of a PEM file as the trust roots (a loopback APNs's, from the
  /// configuration's `push.apns.trustRoots`), or the system's when `trustRootsFile` is nil.
  public convenience init(endpoints: Endpoints, perEnvironment: Int, trustRootsFile: String?) throws(StatlineError) {
    self.init(
      endpoints: endpoints, perEnvironment: perEnvironment,
      trustRoots: try HTTP2Clients.trustRoots(trustRootsFile, key: "push.apns.trustRoots"))
  }

  /// Connections opened so far (replacements included).
  public var opened: Int { pools.values.reduce(0) { $0 + $1.opened } }

  /// The next connection for `environment`, and its place (to replace it).
  func take(_ environment: Device.Environment) -> (HTTPClient, Int) { pools[environment]!.take() }

  /// Replaces the connection at `index` if it is still `client`.
  func replace(_ environment: Device.Environment, _ index: Int, _ client: HTTPClient) {
    pools[environment]?.replace(index, client)
  }

  /// Closes every connection.
  public func shutdown() async {
    for pool in pools.values { await pool.shutdown() }
  }
}
