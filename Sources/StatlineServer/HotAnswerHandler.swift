import Foundation
import NIOCore
import NIOHTTP1

/// Answers from `HotAnswers` on the event loop, before a request reaches Hummingbird: a cached
/// answer costs no task, no actor hop and no header conversion. It sits between NIO's HTTP/1
/// codec and Hummingbird's, and only answers a request when no earlier request of the
/// connection is still being answered behind it (responses stay in order), the request is
/// HTTP/1.1 keep-alive with no body, and the answer is there; everything else passes on.
final class HotAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  let api: ReadAPI
  let dates: HTTPDateText
  /// NIO's response encoder's context: bytes written through it skip the encoder and go to
  /// the socket. The answers here are whole HTTP/1.1 responses, written only while no response
  /// from behind is under way, so they never interleave with the encoder's.
  private var socket: ChannelHandlerContext?
  /// The `Date` and `Server` headers and the blank line, for the current second.
  private var dated = (second: -1, end: ByteBuffer())
  /// Requests passed on whose responses have not ended.
  private var passedOn = 0
  /// A request being answered here, waiting for its end.
  private var reply: (HotAnswers.Reply, started: ContinuousClock.Instant)?
  /// Whether a response was written here.
  private var answered = false
  /// A quiesce (graceful shutdown) held until the responses written here are out: the
  /// handlers after this one close an idle connection on it, and they do not see the requests
  /// answered here. Requests from then on are passed on.
  private var heldQuiesce = false
  /// The connection's last `Accept` and `Accept-Encoding` and what they allow (a client sends
  /// the same ones every time).
  private var acceptMemo = (header: "*/*", json: true)
  private var encodingMemo = (header: "", gzip: false)

  /// The clients' read rate, when it is limited: an answer sent here takes its token, and a
  /// request past it is passed on (the router answers the 429).
  let gate: ClientGate?
  /// The client's address, read once.
  private var address: String?

  init(api: ReadAPI, dates: HTTPDateText, gate: ClientGate? = nil) {
    self.api = api
    self.dates = dates
    self.gate = gate?.limitsReads == true ? gate : nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      let started = ContinuousClock.now
      if passedOn == 0, !heldQuiesce, socket != nil, let found = answer(head), allowed(context) {
        reply = (found, started)
        return
      }
      passedOn += 1
      context.fireChannelRead(data)
    case .body:
      context.fireChannelRead(data)
    case .end:
      guard let (found, started) = reply else {
        context.fireChannelRead(data)
        return
      }
      reply = nil
      send(found, context: context)
      found.series?.record(ContinuousClock.now - started)
    }
  }

  /// The cached answer to `head`, if it is one the event loop may send: GET or HEAD, HTTP/1.1
  /// keep-alive, no body, an `Accept` that takes JSON.
  private func answer(_ head: HTTPRequestHead) -> HotAnswers.Reply? {
    guard head.method == .GET || head.method == .HEAD, head.version == .http1_1, head.isKeepAlive else { return nil }
    let read = RequestConditions(head.headers)
    guard !read.hasBody else { return nil }
    if let accept = read.accept {
      if accept != acceptMemo.header { acceptMemo = (accept, ReadAPI.acceptsJSON(accept)) }
      guard acceptMemo.json else { return nil }
    }
    var gzip = false
    if let encoding = read.acceptEncoding {
      if encoding != encodingMemo.header { encodingMemo = (encoding, ReadAPI.acceptsGzip(encoding)) }
      gzip = encodingMemo.gzip
    }
    return api.hot.reply(
      to: head.uri, head: head.method == .HEAD, gzip: gzip, ifNoneMatch: read.ifNoneMatch, at: api.monotonic(),
      date: api.now())
  }

  /// Whether the client may be answered here: no read rate, or a token taken.
  private func allowed(_ context: ChannelHandlerContext) -> Bool {
    guard let gate else { return true }
    if address == nil { address = ClientGate.address(of: context.channel) }
    return gate.read(address ?? "unknown", counting: false) == nil
  }

  private func send(_ found: HotAnswers.Reply, context: ChannelHandlerContext) {
    guard let socket else { return }
    let now = Date()
    let second = Int(now.timeIntervalSince1970.rounded(.down))
    if second != dated.second {
      dated = (second, ByteBuffer(string: "Date: \(dates.text(at: now))\r\nServer: \(api.hot.serverName)\r\n\r\n"))
    }
    socket.write(NIOAny(found.start), promise: nil)
    if let body = found.body {
      socket.write(NIOAny(dated.end), promise: nil)
      socket.writeAndFlush(NIOAny(body), promise: nil)
    } else {
      socket.writeAndFlush(NIOAny(dated.end), promise: nil)
    }
    answered = true
  }

  func handlerAdded(context: ChannelHandlerContext) {
    socket = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    socket = nil
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { passedOn -= 1 }
    context.write(data, promise: promise)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard event is ChannelShouldQuiesceEvent, answered, let socket else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    // Writes complete in order: once an empty one behind the answers sent here completes,
    // they are all out, and the connection may be closed.
    heldQuiesce = true
    let flushed = context.eventLoop.makePromise(of: Void.self)
    socket.writeAndFlush(NIOAny(ByteBuffer()), promise: flushed)
    flushed.futureResult.assumeIsolated().whenComplete { _ in
      context.fireUserInboundEventTriggered(event)
    }
  }
}
