import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with `HotAnswerHandler` in front of its HTTP types codec:
/// the same pipeline as `HTTP1Channel` (NIO's codec without pipelining assistance, the HTTP
/// types codec, the connection state handler, the async channel), plus the event loop's own
/// answers for what is cached.
struct HotHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
  typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

  let responder: HTTPChannelHandler.Responder
  let api: ReadAPI
  let dates = HTTPDateText()

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      let pipeline = channel.pipeline.syncOperations
      var limits = NIOHTTPDecoderLimitConfiguration()
      limits.maxHeaderFieldSize = 80 * 1024
      limits.maxHeaderListSize = 80 * 1024
      limits.maxHeaderFieldCount = 1_000
      try pipeline.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
        withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
      try pipeline.addHandler(HotAnswerHandler(api: api, dates: dates))
      try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
      try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
      return try NIOAsyncChannel(
        wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
    }
  }

  func handle(value asyncChannel: Value, logger: Logger) async {
    await handleHTTP(asyncChannel: asyncChannel, logger: logger)
  }
}

extension HTTPServerBuilder {
  /// HTTP/1 with the read API's cached answers sent from the event loop.
  static func http1(answering api: ReadAPI) -> HTTPServerBuilder {
    HTTPServerBuilder { responder in HotHTTP1Channel(responder: responder, api: api) }
  }
}
