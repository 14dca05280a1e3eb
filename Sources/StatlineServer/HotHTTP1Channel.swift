import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with `HotAnswerHandler` in front of its HTTP types codec:
/// the same pipeline as `HTTP1Channel` (NIO's codec without pipelining assistance, the HTTP
/// types codec, the connection state handler, the async channel), plus the event loop's own
/// answers for what is cached, and `ConnectionLimits` (request and idle timeouts, a connection
/// limit) against slow and idle clients.
struct HotHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
  typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

  let responder: HTTPChannelHandler.Responder
  let api: ReadAPI
  let limits: ConnectionLimits
  let connections: ConnectionCount
  let gate: ClientGate?
  let dates = HTTPDateText()

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      let pipeline = channel.pipeline.syncOperations
      if connections.enter(limit: limits.maximumConnections) {
        channel.closeFuture.whenComplete { _ in connections.leave() }
      } else {
        // Closed as soon as it is active (the set-up runs before the channel is registered, so
        // neither a close nor a failure here would end it).
        logger.debug(
          "connection refused: the server is at its limit", metadata: ["limit": "\(limits.maximumConnections)"])
        try pipeline.addHandler(CloseWhenActive())
      }
      let watch = ConnectionWatch(limits: limits)
      try pipeline.addHandler(ConnectionEdge(watch: watch))
      var decoderLimits = NIOHTTPDecoderLimitConfiguration()
      decoderLimits.maxHeaderFieldSize = 80 * 1024
      decoderLimits.maxHeaderListSize = 80 * 1024
      decoderLimits.maxHeaderFieldCount = 1_000
      try pipeline.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
        withEncoderConfiguration: .init(), withDecoderLimitConfiguration: decoderLimits)
      try pipeline.addHandler(ConnectionRequestWatch(watch: watch))
      try pipeline.addHandler(HotAnswerHandler(api: api, dates: dates, gate: gate))
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
  /// HTTP/1 with the read API's cached answers sent from the event loop, and the limits that
  /// hold it against slow clients.
  static func http1(answering api: ReadAPI, limits: ConnectionLimits, gate: ClientGate? = nil) -> HTTPServerBuilder {
    let connections = ConnectionCount()
    return HTTPServerBuilder { responder in
      HotHTTP1Channel(responder: responder, api: api, limits: limits, connections: connections, gate: gate)
    }
  }
}
