import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// What holds the API against slow and idle clients: a request's head (and body) must arrive
/// within `requestTimeout` of the connection opening or of the head (a slowloris client that
/// dribbles a header is cut off); a connection that has sent its request and is neither being
/// answered nor sending a new request is closed `idleTimeout` after the last byte written to it
/// (idle keep-alive; an event stream writes a heartbeat every 15 s, so it stays open); and at
/// most `maximumConnections` connections are open at once (the rest are closed on accept, so
/// the process keeps file descriptors for `/healthz`).
public struct ConnectionLimits: Sendable, Equatable {
  public var requestTimeout: Duration = .seconds(10)
  public var idleTimeout: Duration = .seconds(60)
  public var maximumConnections = 4096

  public init(
    requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60), maximumConnections: Int = 4096
  ) {
    self.requestTimeout = requestTimeout
    self.idleTimeout = idleTimeout
    self.maximumConnections = maximumConnections
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
  private let open = NIOLockedValueBox(0)

  /// Takes a place, or says there is none.
  func enter(limit: Int) -> Bool {
    open.withLockedValue { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func leave() { open.withLockedValue { $0 -= 1 } }

  var current: Int { open.withLockedValue { $0 } }
}

/// One connection's watch, shared by its two handlers on the channel's event loop.
final class ConnectionWatch {
  enum Phase {
    /// Waiting for a request's head and body to be complete, until the deadline.
    case reading(until: NIODeadline)
    /// A request is complete: answered (or idle) until `idleTimeout` passes without a write.
    case answering
  }

  let limits: ConnectionLimits
  var phase: Phase
  var lastWrite = NIODeadline.now()
  private var timer: Scheduled<Void>?

  init(limits: ConnectionLimits) {
    self.limits = limits
    phase = .reading(until: .now() + TimeAmount(limits.requestTimeout))
  }

  func headArrived() { phase = .reading(until: .now() + TimeAmount(limits.requestTimeout)) }
  func requestEnded() { phase = .answering }
  func wrote() { lastWrite = .now() }

  /// When the connection is to be closed unless something happens before.
  var deadline: NIODeadline {
    switch phase {
    case .reading(let until): until
    case .answering: lastWrite + TimeAmount(limits.idleTimeout)
    }
  }

  /// Closes the connection at its deadline, looking again each time the timer fires (a write
  /// or a new request moves the deadline on without touching the timer).
  func arm(_ context: ChannelHandlerContext) {
    let loop = context.eventLoop.assumeIsolated()
    let deadline = self.deadline
    timer = loop.scheduleTask(deadline: deadline) { [self] in
      if NIODeadline.now() >= self.deadline {
        context.close(promise: nil)
      } else {
        arm(context)
      }
    }
  }

  func disarm() {
    timer?.cancel()
    timer = nil
  }
}

/// At the socket: every write moves the idle deadline on.
final class ConnectionWriteWatch: ChannelOutboundHandler, RemovableChannelHandler {
  typealias OutboundIn = NIOAny
  typealias OutboundOut = NIOAny

  let watch: ConnectionWatch

  init(watch: ConnectionWatch) { self.watch = watch }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    watch.wrote()
    context.write(data, promise: promise)
  }
}

/// After NIO's request decoder: a head starts the request's deadline, its end hands the
/// connection to the idle rule. Arms the timer when the connection opens.
final class ConnectionRequestWatch: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  let watch: ConnectionWatch

  init(watch: ConnectionWatch) { self.watch = watch }

  func handlerAdded(context: ChannelHandlerContext) { watch.arm(context) }

  func handlerRemoved(context: ChannelHandlerContext) { watch.disarm() }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head: watch.headArrived()
    case .body: break
    case .end: watch.requestEnded()
    }
    context.fireChannelRead(data)
  }

  func channelInactive(context: ChannelHandlerContext) {
    watch.disarm()
    context.fireChannelInactive()
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
