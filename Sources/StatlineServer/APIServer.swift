import Dispatch
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import StatlineCore

/// The API on Hummingbird 2: an application (a swift-service-lifecycle `Service`) that hands a
/// request under a route group's path to that group's router (`RouteGroup`), every other request
/// to `ReadAPI`, and streams `/v1/events/stream` from the `EventHub`. Graceful shutdown lets
/// requests in flight finish and ends every event stream.
public struct APIServer: Sendable {
  public let api: ReadAPI
  public let hub: EventHub
  public let limits: ConnectionLimits
  /// The route groups beside the read API (none: the server is the read API alone).
  public let groups: [any RouteGroup]
  /// The event streams replaying the past, bounded by `limits`.
  public let replays: EventReplays
  /// Each client's read rate and requests at once (`limits.clients`).
  let gate: ClientGate

  /// - Parameters:
  ///   - bell: the writing store's `EventLog.eventBell` when the job runs in this process: event
  ///     streams then send each event the moment it is stored.
  ///   - seconds: the clients' read rate's clock (monotonic; injected in tests).
  public init(
    api: ReadAPI, hub: EventHub? = nil, bell: EventBell? = nil, limits: ConnectionLimits = ConnectionLimits(),
    groups: [any RouteGroup] = [],
    seconds: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
  ) {
    self.api = api
    self.hub = hub ?? EventHub(reader: api.reader, bell: bell)
    self.limits = limits
    self.groups = groups
    replays = EventReplays(limits: limits)
    gate = ClientGate(limits: limits.clients, metrics: api.metrics, seconds: seconds)
    api.metrics?.replays = replays
  }

  /// - Parameter onRunning: called with the bound port once the server listens (port 0 binds an
  ///   ephemeral one).
  public func application(
    host: String, port: Int, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let api = api
    let hub = hub
    let replays = replays
    let mounted = MountedGroups(groups)
    let gate = gate
    let responder = CallbackResponder<ConnectionContext> { request, context in
      let address = ClientGate.address(of: context.channel)
      if let refused = gate.enter(address) {
        return Self.refusal(refused, request, metrics: api.metrics)
      }
      defer { gate.leave(address) }
      if let group = mounted.owner(of: request.uri.path) {
        let started = ContinuousClock.now
        let response = try await group.responder.respond(to: request, context: context)
        api.metrics?.request(
          route: group.path, status: Int(response.status.code), duration: ContinuousClock.now - started)
        return response
      }
      if !ClientGate.isOperators(request.uri.path), let refused = gate.read(address) {
        return Self.refusal(refused, request, metrics: api.metrics)
      }
      var headers: [String: String] = [:]
      for field in request.headers {
        let name = field.name.canonicalName
        headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
      }
      let apiRequest = APIRequest(
        method: request.method.rawValue, path: request.uri.path, query: request.uri.query, headers: headers)
      let started = ContinuousClock.now
      let answer: APIResponse
      if ReadAPI.isEventStream(apiRequest.path) {
        switch await api.streamStart(apiRequest) {
        case .answer(let problem): answer = problem
        case .after(let start, let behind):
          var ticket: Int?
          if EventReplays.isReplay(behind: behind) {
            ticket = replays.enter()
            guard ticket != nil else {
              answer = replays.refusal(path: apiRequest.path)
              break
            }
          }
          api.metrics?.request(route: "/v1/events/stream", status: 200, duration: ContinuousClock.now - started)
          return Response(
            status: .ok, headers: Self.fields(ReadAPI.streamHeaders),
            body: EventStreamBody(
              reader: api.reader, hub: hub, start: start, channel: context.channel,
              replay: ticket.map { (replays, $0) }
            ).body)
        }
      } else {
        answer = await api.respond(apiRequest)
      }
      api.metrics?.request(
        route: Route.template(of: apiRequest.path), status: answer.status, duration: ContinuousClock.now - started)
      return Self.response(answer, head: request.method == .head)
    }
    return Application(
      responder: responder, server: .http1(answering: api, limits: limits, gate: gate),
      configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: api.hot.serverName),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) }, logger: logger)
  }

  /// A 429 for a client past its limits, counted under its route.
  static func refusal(_ problem: Problem, _ request: Request, metrics: ServerMetrics?) -> Response {
    metrics?.request(route: Route.template(of: request.uri.path), status: problem.status, duration: .zero)
    return response(problem.response(path: request.uri.path), head: request.method == .head)
  }

  static func response(_ answer: APIResponse, head: Bool) -> Response {
    var body = ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
    if head, let length = answer.headers["content-length"].flatMap(Int.init) {
      body = ResponseBody(contentLength: length) { _ in }
    }
    return Response(status: HTTPResponse.Status(code: answer.status), headers: fields(answer.headers), body: body)
  }

  static func fields(_ headers: [String: String]) -> HTTPFields {
    var fields = HTTPFields()
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name != "content-length" {
      if let name = HTTPField.Name(name) { fields[name] = value }
    }
    return fields
  }
}

/// A request's context with its connection, so that a stream can cut off a slow client.
public struct ConnectionContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  public let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}
