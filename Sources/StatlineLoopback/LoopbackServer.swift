import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import StatlineCore

/// An HTTP/1.1 server on 127.0.0.1 (an ephemeral port) that answers from a script, with
/// faults: the site stand-in for fetcher, politeness and scheduler tests. Gzip is applied when
/// the client asks for it. Stop it with `stop()`.
public final class LoopbackServer: Sendable {
  /// How to answer one request.
  public enum Behavior: Sendable {
    case respond(status: Int, headers: [String: String] = [:], body: String = "")
    /// Declares `declaredLength` bytes, sends `body`, then closes the connection.
    case truncated(declaredLength: Int, body: String)
    /// Closes the connection without answering.
    case reset
    /// Never answers.
    case hang
    /// Raw bytes (invalid UTF-8, pre-compressed bodies).
    case bytes(status: Int, headers: [String: String], body: Data)
    /// Sends the head at once, then the body in `chunks` pieces, one every `interval`.
    case drip(body: String, chunks: Int, interval: Duration)

    public static func ok(_ body: String, headers: [String: String] = [:]) -> Behavior {
      .respond(status: 200, headers: headers, body: body)
    }

    public static func redirect(_ location: String) -> Behavior {
      .respond(status: 302, headers: ["Location": location])
    }

    /// The status the answer carries (0: none is sent).
    public var status: Int {
      switch self {
      case .respond(let status, _, _), .bytes(let status, _, _): status
      case .truncated, .drip: 200
      case .reset, .hang: 0
      }
    }
  }

  /// A request as the server saw it.
  public struct Request: Sendable, Equatable {
    public var method: String
    public var uri: String
    public var headers: [String: String]
    /// The request body (a webhook's JSON).
    public var body = Data()

    public init(method: String, uri: String, headers: [String: String], body: Data = Data()) {
      self.method = method
      self.uri = uri
      self.headers = headers
      self.body = body
    }
  }

  public typealias Router = @Sendable (Request) -> Behavior

  /// The requests received, shared with the connection handlers.
  final class RequestLog: Sendable {
    let entries = Locked<[Request]>([])
    func append(_ request: Request) { entries.withLock { $0.append(request) } }
  }

  private let channel: any Channel
  private let log: RequestLog
  public let port: Int

  public let host: String

  public var baseURL: String { "http://\(host):\(port)" }

  /// Every request received so far, in order.
  public var requests: [Request] { log.entries.withLock { $0 } }

  /// - Parameter host: a loopback address (127.0.0.1, or 127.0.0.2 for a second "host" with
  ///   its own politeness limits).
  ///   - ownThread: serve on a thread of its own rather than the shared event loops, so that a
  ///     server busy with a huge answer cannot stall the others.
  public static func start(host: String = "127.0.0.1", ownThread: Bool = false, _ router: @escaping Router)
    async throws -> LoopbackServer
  {
    let group: any EventLoopGroup =
      ownThread ? MultiThreadedEventLoopGroup(numberOfThreads: 1) : MultiThreadedEventLoopGroup.singleton
    let log = RequestLog()
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(HTTPResponseCompressor())
          try channel.pipeline.syncOperations.addHandler(
            ScriptHandler(router: router) { request in log.append(request) })
        }
      }
      .bind(host: host, port: 0).get()
    return LoopbackServer(channel: channel, log: log, host: host, ownedGroup: ownThread ? group : nil)
  }

  /// Serves a fixed map of paths (with query) to behaviours; anything else is 404.
  public static func start(routes: [String: Behavior]) async throws -> LoopbackServer {
    try await start { request in routes[request.uri] ?? .respond(status: 404, body: "not found") }
  }

  private let ownedGroup: (any EventLoopGroup)?

  private init(channel: any Channel, log: RequestLog, host: String, ownedGroup: (any EventLoopGroup)?) {
    self.ownedGroup = ownedGroup
    self.channel = channel
    self.log = log
    self.host = host
    self.port = channel.localAddress?.port ?? 0
  }

  public func stop() async throws {
    try await channel.close()
    try await ownedGroup?.shutdownGracefully()
  }

  public func count(_ uri: String) -> Int { requests.filter { $0.uri == uri }.count }
}

private final class ScriptHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let router: LoopbackServer.Router
  private let record: @Sendable (LoopbackServer.Request) -> Void
  private var head: HTTPRequestHead?
  private var body = Data()

  init(router: @escaping LoopbackServer.Router, record: @escaping @Sendable (LoopbackServer.Request) -> Void) {
    self.router = router
    self.record = record
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
      body = Data()
    case .body(let buffer): body.append(contentsOf: buffer.readableBytesView)
    case .end:
      guard let head else { return }
      self.head = nil
      var headers: [String: String] = [:]
      for (name, value) in head.headers { headers[name.lowercased()] = value }
      let request = LoopbackServer.Request(method: head.method.rawValue, uri: head.uri, headers: headers, body: body)
      record(request)
      respond(router(request), context: context, version: head.version)
    }
  }

  private func respond(_ behavior: LoopbackServer.Behavior, context: ChannelHandlerContext, version: HTTPVersion) {
    switch behavior {
    case .hang: return
    case .reset: context.close(promise: nil)
    case .respond(let status, let headers, let body):
      var fields = HTTPHeaders(headers.map { ($0.key, $0.value) })
      fields.replaceOrAdd(name: "Content-Length", value: String(body.utf8.count))
      write(status: status, headers: fields, body: body, context: context, version: version, close: false)
    case .truncated(let declaredLength, let body):
      let fields = HTTPHeaders([("Content-Length", String(declaredLength))])
      write(status: 200, headers: fields, body: body, context: context, version: version, close: true)
    case .bytes(let status, let headers, let body):
      var fields = HTTPHeaders(headers.map { ($0.key, $0.value) })
      fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
      let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: fields)
      context.write(wrapOutboundOut(.head(head)), promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    case .drip(let body, let chunks, let interval):
      drip(Array(body.utf8), chunks: max(chunks, 1), interval: interval, context: context, version: version)
    }
  }

  private func drip(
    _ bytes: [UInt8], chunks: Int, interval: Duration, context: ChannelHandlerContext, version: HTTPVersion
  ) {
    let fields = HTTPHeaders([("Content-Length", String(bytes.count))])
    let head = HTTPResponseHead(version: version, status: .ok, headers: fields)
    context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
    let size = (bytes.count + chunks - 1) / chunks
    let pieces = stride(from: 0, to: bytes.count, by: max(size, 1)).map {
      Array(bytes[$0..<min($0 + size, bytes.count)])
    }
    let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
    let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
    for (index, piece) in pieces.enumerated() {
      context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds * Int64(index + 1))) {
        let (context, handler) = bound.value
        guard context.channel.isActive else { return }
        context.write(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
        if index == pieces.count - 1 {
          context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
        } else {
          context.flush()
        }
      }
    }
  }

  private func write(
    status: Int, headers: HTTPHeaders, body: String, context: ChannelHandlerContext, version: HTTPVersion,
    close: Bool
  ) {
    let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    if !body.isEmpty {
      context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
    }
    if close {
      let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
      context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer())))).whenComplete { _ in
        bound.value.close(promise: nil)
      }
    } else {
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}
