import AsyncHTTPClient
import Foundation
import StatlineCore

/// The HTTP clients of a fetcher, one per host name and the address it was checked at: a name is
/// resolved here (`HostResolver`), every address it gives is judged (a loopback, private or
/// link-local one is refused, as a configuration error, unless `http.privateHosts` names the
/// host), and the connection is
/// pinned to the address that passed (the client's `dnsOverride`), so the client never resolves
/// the name again and a second answer (DNS rebinding) cannot move it elsewhere. TLS still checks
/// the certificate against the name. Address literals and `localhost` are judged by what they
/// say (`RedirectRules`, the target's own reach) and go through the shared client.
///
/// A resolution is kept for `lifetime` (the resolver says no TTL); a host whose address changed
/// gets a new client, and clients unused for longer than `idleAfter` are shut down when more
/// than `maximumClients` are held.
actor PinnedClients {
  struct Pin {
    var address: String
    var resolvedAt: Date
  }

  private let resolver: any HostResolver
  private let privateHosts: Set<String>
  private let lifetime: TimeInterval
  private let idleAfter: TimeInterval
  private let maximumClients: Int
  private let now: @Sendable () -> Date
  private let makeClient: @Sendable (_ host: String, _ address: String) -> HTTPClient
  private var pins: [String: Pin] = [:]
  private var clients: [String: (client: HTTPClient, usedAt: Date)] = [:]

  init(
    resolver: any HostResolver, privateHosts: Set<String>, lifetime: TimeInterval, idleAfter: TimeInterval,
    maximumClients: Int = 64, now: @escaping @Sendable () -> Date,
    makeClient: @escaping @Sendable (_ host: String, _ address: String) -> HTTPClient
  ) {
    self.resolver = resolver
    self.privateHosts = Set(privateHosts.map { $0.lowercased() })
    self.lifetime = lifetime
    self.idleAfter = idleAfter
    self.maximumClients = maximumClients
    self.now = now
    self.makeClient = makeClient
  }

  /// Whether a host is a name this actor resolves (not an address literal, not `localhost`).
  nonisolated static func resolves(_ address: WebAddress) -> Bool { address.reach == .public && !address.isLiteral }

  /// The client pinned to `address`'s host at an address that passed, resolving when the last
  /// resolution is older than `lifetime`.
  func client(for address: WebAddress) async throws -> HTTPClient {
    let host = address.host  // lower-cased by `WebAddress`
    let time = now()
    let pin: Pin
    if let held = pins[host], held.resolvedAt <= time, time.timeIntervalSince(held.resolvedAt) < lifetime {
      pin = held
    } else {
      let answers = try await resolver.addresses(of: host, port: address.effectivePort)
      let chosen = try Self.choose(answers, host: host, allowPrivate: privateHosts.contains(host), url: address.url)
      pin = Pin(address: chosen, resolvedAt: time)
      pins[host] = pin
    }
    let key = host + "\u{0}" + pin.address
    if let held = clients[key] {
      clients[key]?.usedAt = time
      return held.client
    }
    let client = makeClient(host, pin.address)
    clients[key] = (client, time)
    await retireIdle(at: time)
    return client
  }

  /// The first address a connection may use: every one when the configuration names the host,
  /// else the public ones; none is an error naming the host and what it resolved to.
  nonisolated static func choose(_ answers: [String], host: String, allowPrivate: Bool, url: String)
    throws(StatlineError)
    -> String
  {
    if allowPrivate, let first = answers.first { return first }
    if let usable = answers.first(where: { WebAddress.Reach.of(host: $0) == .public }) { return usable }
    guard let first = answers.first else {
      throw StatlineError(.network, "the host \(host) resolves to no address", location: WebAddress.shown(url))
    }
    let reach = WebAddress.Reach.of(host: first)
    // A configuration error: not retried at once (the answer will not change in a second), and
    // what fixes it, when it is meant, is a line of configuration.
    throw StatlineError(
      .configuration,
      "the host \(host) resolves to \(answers.prefix(4).joined(separator: ", ")) (\(reach.rawValue)), which a public host may not reach",
      location: WebAddress.shown(url),
      hint: "list the host under http.privateHosts if it is really meant to be on this network (a lab)")
  }

  /// Shuts down the clients beyond `maximumClients` that no request has used for `idleAfter`
  /// (longer than any request may take, so none is in flight), least recently used first.
  private func retireIdle(at time: Date) async {
    guard clients.count > maximumClients else { return }
    let idle = clients.filter { time.timeIntervalSince($0.value.usedAt) > idleAfter }
      .sorted { $0.value.usedAt < $1.value.usedAt }
    for (key, held) in idle.prefix(clients.count - maximumClients) {
      clients[key] = nil
      try? await held.client.shutdown()
    }
  }

  /// Shuts every client down.
  func shutdown() async throws {
    let all = clients.values.map(\.client)
    clients = [:]
    pins = [:]
    for client in all { try await client.shutdown() }
  }
}
