import NIOCore
import NIOHTTP1
import NIOHTTP2

extension LoopbackHTTP2 {
  /// One HTTP/2 stream: reads the request, asks the fake (`answer`), writes its answer (after
  /// its delay, or never), and sends the connection a GOAWAY when scripted.
  final class StreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let answer: @Sendable (Request) -> Answer
    let connection: Int
    var head: HTTPRequestHead?
    var body: [UInt8] = []

    init(connection: Int, answer: @escaping @Sendable (Request) -> Answer) {
      self.answer = answer
      self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let head): self.head = head
      case .body(var buffer): body += buffer.readBytes(length: buffer.readableBytes) ?? []
      case .end:
        guard let head else { return }
        let stream =
          (try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID))
          .map { Int($0) } ?? 0
        let answer = self.answer(
          Request(
            method: head.method, path: head.uri, headers: head.headers, body: body, connection: connection,
            stream: stream))
        if answer.goAway, let parent = context.channel.parent {
          let frame = HTTP2Frame(
            streamID: .rootStream,
            payload: .goAway(
              lastStreamID: HTTP2StreamID(stream), errorCode: .noError,
              opaqueData: ByteBuffer(string: #"{"reason":"Shutdown"}"#)))
          parent.writeAndFlush(frame, promise: nil)
        }
        if answer.never { return }
        if let delay = answer.delay {
          let loop = context.eventLoop.assumeIsolated()
          loop.scheduleTask(
            in: .nanoseconds(
              Int64(delay.components.seconds) * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
          ) {
            self.write(answer, context: context)
          }
        } else {
          write(answer, context: context)
        }
      }
    }

    func write(_ answer: Answer, context: ChannelHandlerContext) {
      var headers = HTTPHeaders()
      if let id = answer.apnsId { headers.add(name: "apns-id", value: id) }
      for (name, value) in answer.headers { headers.add(name: name, value: value) }
      if !answer.body.isEmpty { headers.add(name: "content-type", value: "application/json") }
      headers.add(name: "content-length", value: String(answer.body.count))
      context.write(
        wrapOutboundOut(
          .head(
            HTTPResponseHead(version: .http2, status: HTTPResponseStatus(statusCode: answer.status), headers: headers))),
        promise: nil)
      if !answer.body.isEmpty {
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
      }
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}
