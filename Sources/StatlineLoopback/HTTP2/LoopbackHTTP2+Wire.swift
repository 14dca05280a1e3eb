import NIOCore
import NIOHPACK
import NIOHTTP2

extension LoopbackHTTP2 {
  /// Ends a bodiless answer on its HEADERS frame, as APNs does (a 200 has no body): NIO's
  /// HTTP/1 codec would send the headers and then an empty DATA frame to end the stream, which
  /// a client that reads every DATA frame as a JSON reason (aioapns) takes for a broken answer.
  final class EndStreamOnHeaders: ChannelOutboundHandler {
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private var held: (HTTP2Frame.FramePayload.Headers, EventLoopPromise<Void>?)?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
      let payload = unwrapOutboundIn(data)
      if case .headers(let headers) = payload, !headers.endStream {
        if let (earlier, earlierPromise) = held {
          context.write(wrapOutboundOut(.headers(earlier)), promise: earlierPromise)
        }
        held = (headers, promise)
        return
      }
      if let (headers, headersPromise) = held {
        held = nil
        if case .data(let data) = payload, data.endStream, case .byteBuffer(let buffer) = data.data,
          buffer.readableBytes == 0
        {
          var ended = headers
          ended.endStream = true
          context.write(wrapOutboundOut(.headers(ended)), promise: headersPromise)
          promise?.succeed()
          return
        }
        context.write(wrapOutboundOut(.headers(headers)), promise: headersPromise)
      }
      context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
      context.flush()
    }
  }
}

extension LoopbackHTTP2 {
  /// Takes a request's `host` header as its `:authority` when it has none (RFC 9113 §8.3.1
  /// lets a client send either; aioapns sends `host`), before NIO's HTTP/1 codec, which needs
  /// `:authority` and would otherwise drop the request without an answer.
  final class AuthorityFromHost: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard case .headers(var headers) = unwrapInboundIn(data), !headers.headers.contains(name: ":authority"),
        let host = headers.headers.first(name: "host")
      else {
        context.fireChannelRead(data)
        return
      }
      var block = HPACKHeaders()
      for (name, value, indexing) in headers.headers where name.hasPrefix(":") {
        block.add(name: name, value: value, indexing: indexing)
      }
      block.add(name: ":authority", value: host)
      for (name, value, indexing) in headers.headers where !name.hasPrefix(":") {
        block.add(name: name, value: value, indexing: indexing)
      }
      headers.headers = block
      context.fireChannelRead(wrapInboundOut(.headers(headers)))
    }
  }
}
