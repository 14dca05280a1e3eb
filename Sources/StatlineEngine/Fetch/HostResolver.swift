import Foundation
import NIOPosix
import StatlineCore

/// Turns a host name into the addresses a connection to it may use (numeric IPv4 or IPv6
/// text), so that the fetcher can check them before it connects (`PinnedClients`). Injected:
/// tests answer from a table, the job asks the system.
public protocol HostResolver: Sendable {
  /// The host's addresses, in the order the resolver prefers; an error when it has none.
  func addresses(of host: String, port: Int) async throws -> [String]
}

/// The system's resolver (`getaddrinfo`: `/etc/hosts`, then DNS), run on NIO's blocking pool so
/// that a slow lookup holds no task thread.
public struct SystemResolver: HostResolver {
  public init() {}

  public func addresses(of host: String, port: Int) async throws -> [String] {
    try await NIOThreadPool.singleton.runIfActive { try Self.lookUp(host, port: port) }
  }

  static func lookUp(_ host: String, port: Int) throws -> [String] {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      let reason = String(cString: gai_strerror(status))
      throw StatlineError(
        .network, "the host \(host) does not resolve (\(reason))", location: host,
        hint: "check the address; the scheduler retries with backoff")
    }
    defer { freeaddrinfo(first) }
    var addresses: [String] = []
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let entry = next {
      if let text = Self.numeric(entry.pointee), !addresses.contains(text) { addresses.append(text) }
      next = entry.pointee.ai_next
    }
    return addresses
  }

  /// The numeric text of one answer (`93.184.216.34`, `2606:2800::1`).
  static func numeric(_ entry: addrinfo) -> String? {
    guard let address = entry.ai_addr else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let done: UnsafePointer<CChar>?
    switch entry.ai_family {
    case AF_INET:
      done = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
        var bytes = v4.pointee.sin_addr
        return inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count))
      }
    case AF_INET6:
      done = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
        var bytes = v6.pointee.sin6_addr
        return inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count))
      }
    default: return nil
    }
    guard done != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
