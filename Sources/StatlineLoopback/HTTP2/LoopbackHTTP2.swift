import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// What the loopback push services (`LoopbackAPNs`, `LoopbackFCM`) share: an HTTP/2 server over
/// TLS on 127.0.0.1 (ALPN `h2`, certificates made at start), handing each request to the fake
/// and writing its answer — after a delay, never, or with a GOAWAY.
public enum LoopbackHTTP2 {
  /// A request as the stream handler read it.
  struct Request {
    var method: HTTPMethod
    var path: String
    var headers: HTTPHeaders
    var body: [UInt8]
    var connection: Int
    var stream: Int
  }

  /// What the handler writes back.
  struct Answer {
    var status: Int
    var apnsId: String?
    var body: [UInt8]
    var delay: Duration?
    var never = false
    var goAway = false
    /// More answer headers (a channel's id, a broadcast's request id, `retry-after`).
    var headers: [(String, String)] = []
  }

  /// Listens on a free port of 127.0.0.1 with `certificates`, advertising `maxStreams`
  /// concurrent streams; `connected` numbers each new connection, `answer` answers each request,
  /// `disconnected` hears of each connection (by its number) that closed.
  static func listen(
    certificates: LoopbackCertificates, maxStreams: Int, connected: @escaping @Sendable () -> Int,
    disconnected: @escaping @Sendable (Int) -> Void = { _ in }, answer: @escaping @Sendable (Request) -> Answer
  ) async throws -> any Channel {
    var tls = TLSConfiguration.makeServerConfiguration(
      certificateChain: certificates.chain.map { .certificate($0) }, privateKey: .privateKey(certificates.key))
    tls.applicationProtocols = ["h2"]
    let context = try NIOSSLContext(configuration: tls)
    return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let connection = connected()
          let sync = channel.pipeline.syncOperations
          try sync.addHandler(Closed(connection: connection, closed: disconnected))
          try sync.addHandler(NIOSSLServerHandler(context: context))
          var settings = NIOHTTP2Handler.ConnectionConfiguration()
          settings.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maxStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 8000),
          ]
          _ = try sync.configureHTTP2Pipeline(
            mode: .server, connectionConfiguration: settings, streamConfiguration: .init()
          ) { stream in
            stream.eventLoop.makeCompletedFuture {
              try stream.pipeline.syncOperations.addHandlers([
                EndStreamOnHeaders(), AuthorityFromHost(), HTTP2FramePayloadToHTTP1ServerCodec(),
                StreamHandler(connection: connection, answer: answer),
              ])
            }
          }
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
  }

  /// Says when its connection closed.
  final class Closed: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
    let connection: Int
    let closed: @Sendable (Int) -> Void

    init(connection: Int, closed: @escaping @Sendable (Int) -> Void) {
      self.connection = connection
      self.closed = closed
    }

    func channelInactive(context: ChannelHandlerContext) {
      closed(connection)
      context.fireChannelInactive()
    }
  }

  /// A JSON body, keys sorted.
  static func json(_ object: [String: Any]) -> [UInt8] {
    Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
  }

  /// Holds a fake for its connection handlers, which run only after it is made.
  final class Held<Value: Sendable>: Sendable {
    private let held = Mutex<Value?>(nil)
    var value: Value? {
      get { held.withLock { $0 } }
      set { held.withLock { $0 = newValue } }
    }
  }
}
