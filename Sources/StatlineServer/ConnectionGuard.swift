import Foundation
import NIOCore
import NIOHTTP1
import StatlineCore

/// What holds the API against slow and idle clients: a request's head (and body) must arrive
/// within `requestTimeout` of the connection opening or of the head (a slowloris client that
/// dribbles a header is cut off); a connection that has sent its request and is neither being
/// answered nor sending a new request is closed `idleTimeout` after the last byte written to it
/// (idle keep-alive; an event stream writes a heartbeat every 15 s, so it stays open); and at
/// most `maximumConnections` connections are open at once (the rest are closed on accept, so
/// the process keeps file descriptors for `/healthz`).
///
/// Event streams that replay the past (`EventReplays`): at most `maximumReplays` at once, and
/// one whose client has not taken a page within `replayStallTimeout` is ended.
public struct ConnectionLimits: Sendable, Equatable {
  public var requestTimeout: Duration = .seconds(10)
  public var idleTimeout: Duration = .seconds(60)
  public var maximumConnections = 4096
  public var maximumReplays = 16
  public var replayStallTimeout: Duration = .seconds(10)
  /// Each client address's read rate and requests at once (off by default).
  public var clients = ClientLimits()

  public init(
    requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60), maximumConnections: Int = 4096,
    maximumReplays: Int = 16, replayStallTimeout: Duration = .seconds(10)
  ) {
    self.requestTimeout = requestTimeout
    self.idleTimeout = idleTimeout
    self.maximumConnections = maximumConnections
    self.maximumReplays = maximumReplays
    self.replayStallTimeout = replayStallTimeout
  }
}

extension ConnectionLimits {
  /// The defaults, with at most as many connections as this process has file descriptors to
  /// spare (64 kept for the store, the job's fetches and the listening socket).
  public static func fittingThisProcess() -> ConnectionLimits {
    var limits = ConnectionLimits()
    var files = rlimit()
    if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < rlim_t(Int.max) {
      limits.maximumConnections = max(16, min(limits.maximumConnections, Int(clamping: files.rlim_cur) - 64))
    }
    return limits
  }
}

/// Counts the open connections of one server.
final class ConnectionCount: Sendable {
  private let open = Locked(0)

  /// Takes a place, or says there is none.
  func enter(limit: Int) -> Bool {
    open.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func leave() { open.withLock { $0 -= 1 } }
}

/// One connection's watch, shared by its two handlers on the channel's event loop.
final class ConnectionWatch {
  enum Phase {
    /// Waiting for a request's head and body to be complete, until the deadline.
    case reading(until: NIODeadline)
    /// A request is complete: answered (or idle) until `idleTimeout` passes with nothing
    /// written since the request ended or the last write.
    case answering
  }

  let limits: ConnectionLimits
  var phase: Phase
  /// The end of the last request or the last write, whichever came later.
  var lastActivity = NIODeadline.now()
  /// Bytes of a request arrived and the request is not complete yet.
  var partial = false
  /// The context at the socket: what is written there goes out as it is.
  var edge: ChannelHandlerContext?
  private var timer: Scheduled<Void>?
  private var refused = false

  init(limits: ConnectionLimits) {
    self.limits = limits
    phase = .reading(until: .now() + TimeAmount(limits.requestTimeout))
  }

  func headArrived() { phase = .reading(until: .now() + TimeAmount(limits.requestTimeout)) }

  func requestEnded() {
    phase = .answering
    partial = false
    // A request after a long quiet spell gets the whole idle timeout to be answered.
    lastActivity = .now()
  }

  func wrote() { lastActivity = .now() }

  /// When the connection is to be closed unless something happens before.
  var deadline: NIODeadline {
    switch phase {
    case .reading(let until): until
    case .answering: lastActivity + TimeAmount(limits.idleTimeout)
    }
  }

  /// Closes the connection at its deadline, looking again each time the timer fires (a write
  /// or a new request moves the deadline on without touching the timer). A request cut off
  /// part way gets a 408 first.
  func arm(_ context: ChannelHandlerContext) {
    let loop = context.eventLoop.assumeIsolated()
    let deadline = self.deadline
    timer = loop.scheduleTask(deadline: deadline) { [self] in
      guard NIODeadline.now() >= self.deadline else { return arm(context) }
      if case .reading = phase, partial {
        refuse(
          Problem(
            title: "Request timeout", status: 408,
            detail: "the request did not arrive whole within \(limits.requestTimeout)"))
      } else {
        context.close(promise: nil)
      }
    }
  }

  func disarm() {
    timer?.cancel()
    timer = nil
  }

  /// Answers `problem` as a whole HTTP/1.1 response written at the socket (NIO's encoder and
  /// Hummingbird never see it), then closes: for requests no handler behind can answer.
  func refuse(_ problem: Problem, headers extra: [String: String] = [:]) {
    guard !refused, let edge else { return }
    refused = true
    var response = problem.response(path: nil)
    response.headers.merge(extra) { _, new in new }
    response.headers["connection"] = "close"
    response.headers["content-length"] = String(response.body.count)
    let reason = HTTPResponseStatus(statusCode: response.status).reasonPhrase
    var text = "HTTP/1.1 \(response.status) \(reason)\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    var buffer = edge.channel.allocator.buffer(capacity: text.utf8.count + 2 + response.body.count)
    buffer.writeString(text + "\r\n")
    buffer.writeBytes(response.body)
    edge.writeAndFlush(NIOAny(buffer)).assumeIsolated().whenComplete { _ in edge.close(promise: nil) }
  }
}

/// At the socket: every write moves the idle deadline on, every read marks a request under
/// way; it keeps the connection's timer.
final class ConnectionEdge: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = NIOAny
  typealias OutboundOut = NIOAny

  let watch: ConnectionWatch

  init(watch: ConnectionWatch) { self.watch = watch }

  func handlerAdded(context: ChannelHandlerContext) {
    watch.edge = context
    watch.arm(context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    watch.disarm()
    watch.edge = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    watch.partial = true
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    watch.wrote()
    context.write(data, promise: promise)
  }

  func channelInactive(context: ChannelHandlerContext) {
    watch.disarm()
    context.fireChannelInactive()
  }
}

/// After NIO's request decoder: a head starts the request's deadline, its end hands the
/// connection to the idle rule. What no handler behind can answer with a body is answered here
/// with problem details: a request NIO cannot parse (an unknown method, a 100 KB header,
/// HTTP/0.9), a target with bytes that are not URL characters, and `CONNECT`.
final class ConnectionRequestWatch: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  let watch: ConnectionWatch
  /// The rest of a request already answered here is dropped.
  private var dropping = false

  init(watch: ConnectionWatch) { self.watch = watch }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      watch.headArrived()
      if head.method == .CONNECT {
        dropping = true
        watch.refuse(
          Problem(title: "Method not allowed", status: 405, detail: "the API is read-only: use GET or HEAD"),
          headers: ["allow": "GET, HEAD"])
        return
      }
      guard head.uri.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
        dropping = true
        watch.refuse(
          Problem(
            title: "Bad request", status: 400,
            detail: "the request target holds bytes that are not URL characters: percent-encode them"))
        return
      }
      dropping = false
    case .body:
      if dropping { return }
    case .end:
      watch.requestEnded()
      if dropping { return }
    }
    context.fireChannelRead(data)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let parse = error as? HTTPParserError else { return context.fireErrorCaught(error) }
    dropping = true
    watch.refuse(
      Problem(title: "Bad request", status: 400, detail: "the request is not HTTP/1.1 that can be read: \(parse)"))
  }
}

/// Closes a connection the server has no room for, as soon as it is open.
final class CloseWhenActive: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { context.close(promise: nil) }
  }

  func channelActive(context: ChannelHandlerContext) { context.close(promise: nil) }
}
