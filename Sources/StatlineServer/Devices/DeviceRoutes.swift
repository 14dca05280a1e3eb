import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StatlineCanonical
import StatlineCore

/// `/v1/devices` (architecture.md#devices): the registry's write API, a route group beside the
/// read API. Every request needs a configured API key (`Authorization: Bearer`, `DeviceKeys`)
/// and is rate limited per client address (before the key is checked: guessing keys costs the
/// guesser) and per key. A device's token is never quoted whole in an answer's problems.
///
/// - `POST /v1/devices`: an idempotent upsert; the kind and token name the device (the same
///   token registered again is the same device, its `registeredAt` kept): 201 when new, 200 when
///   it was there;
/// - `GET`, `PUT` (the same body as `POST`; the body's kind and token must name this id) and
///   `DELETE /v1/devices/{id}`;
/// - `GET /v1/devices/channels/{gameId}?topic=…&environment=…`: the game's open broadcast
///   channel for that app (an activity started with it gets every update in one request).
public struct DeviceRoutes: RouteGroup {
  public struct Limits: Sendable {
    /// Requests a second per key, and the burst allowed.
    public var keyRate = 100.0
    public var keyBurst = 200.0
    /// Requests a second per client address, and the burst allowed.
    public var addressRate = 2.0
    public var addressBurst = 30.0
    public init() {}

    /// The per-address rate and burst, checked (each left as it is when nil); `names` say what to
    /// call them in an error.
    public mutating func setAddress(rate: Double?, burst: Double?, names: (rate: String, burst: String))
      throws(StatlineError)
    {
      if let rate {
        guard rate > 0, rate <= 1_000_000 else {
          throw StatlineError(
            .configuration, "\(names.rate) \(rate) is not a rate above 0 (device requests a second per client address)",
            hint: "for example 2 (the default)")
        }
        addressRate = rate
      }
      if let burst {
        guard burst >= 1, burst <= 1_000_000 else {
          throw StatlineError(
            .configuration, "\(names.burst) \(burst) is below 1", hint: "for example 30 (the default)")
        }
        addressBurst = burst
      }
    }
  }

  public let path = "/v1/devices"
  let registry: any DeviceRegistry
  let keys: DeviceKeys
  let teams: TeamRegistry
  let now: @Sendable () -> Date
  let byKey: RateLimiter
  let byAddress: RateLimiter

  /// - Parameters:
  ///   - now: stamps `registeredAt` / `updatedAt`.
  ///   - seconds: the rate limits' clock (monotonic; injected in tests).
  public init(
    registry: any DeviceRegistry, keys: DeviceKeys, teams: TeamRegistry, limits: Limits = Limits(),
    now: @escaping @Sendable () -> Date = { Date() },
    seconds: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
  ) {
    self.registry = registry
    self.keys = keys
    self.teams = teams
    self.now = now
    byKey = RateLimiter(rate: limits.keyRate, burst: limits.keyBurst, now: seconds)
    byAddress = RateLimiter(rate: limits.addressRate, burst: limits.addressBurst, now: seconds)
  }

  public func addRoutes(to router: Router<ConnectionContext>) {
    let group = router.group(RouterPath(path)).add(middleware: Guard(routes: self))
    group.post { request, _ in await answer(request) { try await self.upsert(request, id: nil) } }
    group.get(":id") { request, context in
      await answer(request) {
        let id = try context.parameters.require("id")
        guard let device = try await self.registry.device(id: id) else { throw Self.noDevice(id) }
        return try Self.json(device, status: .ok)
      }
    }
    group.get("channels/:gameId") { request, context in
      await answer(request) { try await self.channel(request, gameId: try context.parameters.require("gameId")) }
    }
    group.put(":id") { request, context in
      await answer(request) { try await self.upsert(request, id: try context.parameters.require("id")) }
    }
    group.delete(":id") { request, context in
      await answer(request) {
        let id = try context.parameters.require("id")
        guard try await self.registry.deleteDevice(id: id) else { throw Self.noDevice(id) }
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
      }
    }
  }

  /// The key and the limits, before any route.
  struct Guard: RouterMiddleware {
    typealias Context = ConnectionContext
    let routes: DeviceRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
      async throws -> Response
    {
      let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
      if let wait = routes.byAddress.take(address) {
        return DeviceRoutes.problem(DeviceRoutes.tooMany(wait, "from \(address)"), request)
      }
      let header = request.headers[.authorization] ?? ""
      let bearer = header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst("bearer ".count)) : nil
      // The key's place among the configured hashes names its bucket: the key is hashed once.
      guard let key = bearer.flatMap(routes.keys.match) else {
        var response = DeviceRoutes.problem(
          Problem(
            title: "Unauthorized", status: 401,
            detail:
              "writing devices needs an API key: send Authorization: Bearer <key> (a key whose hash the server is configured with)"
          ),
          request)
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
      }
      if let wait = routes.byKey.take("key:\(key)") {
        return DeviceRoutes.problem(DeviceRoutes.tooMany(wait, "with this key"), request)
      }
      return try await next(request, context)
    }
  }

  func upsert(_ request: Request, id: String?) async throws -> Response {
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: DeviceInput.maximumBytes)
    } catch {
      throw Problem(
        title: "Body too large", status: 413, detail: "a device is at most \(DeviceInput.maximumBytes) bytes of JSON")
    }
    let device = try DeviceInput.device(from: Data(buffer: body), teams: teams, at: now())
    if let id, id != device.id {
      throw DeviceInput.invalid(
        "token", "and kind name the device \(device.id), not \(id.prefix(40)): PUT a device at its own id")
    }
    let stored = try await registry.upsertDevice(device)
    var response = try Self.json(stored.device, status: stored.created ? .created : .ok)
    response.headers[.location] = path + "/" + stored.device.id
    return response
  }

  /// A game's open broadcast channel for `topic` (required) in `environment` (production).
  func channel(_ request: Request, gameId: String) async throws -> Response {
    let query = request.uri.queryParameters
    guard let topic = query["topic"].map(String.init), !topic.isEmpty else {
      throw DeviceInput.invalid("topic", "is required: the app's bundle id the channel serves")
    }
    let named = query["environment"].map(String.init) ?? "production"
    guard let environment = Device.Environment(rawValue: named) else {
      throw DeviceInput.invalid("environment", "'\(named.prefix(40))' is not one of production, sandbox")
    }
    let id = Device.channelDeviceId(gameId: gameId, topic: topic, environment: environment)
    guard let channel = try await registry.device(id: id), channel.isLive else {
      throw Problem.notFound(
        "no open broadcast channel for \(gameId.prefix(80)) (\(topic.prefix(80)), \(environment.rawValue)): "
          + "a channel opens when the game is first seen live, with push.apns.broadcast configured, and closes after its final"
      )
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let body = [
      "channel": [
        "id": channel.token, "gameId": gameId, "topic": topic, "environment": environment.rawValue,
        "openedAt": channel.registeredAt,
      ]
    ]
    return Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
  }

  static func noDevice(_ id: String) -> Problem { .notFound("no device \(id.prefix(40))") }

  /// A 429 with `Retry-After`: the seconds until the bucket has a token again.
  static func tooMany(_ wait: Double, _ whom: String) -> Problem { ClientGate.tooMany(wait, "device requests \(whom)") }

  /// Runs a route, answering a `Problem` it throws (and any other error as a 503).
  func answer(_ request: Request, _ body: () async throws -> Response) async -> Response {
    do {
      return try await body()
    } catch let problem as Problem {
      return Self.problem(problem, request)
    } catch {
      return Self.problem(Problem.storeUnavailable(error), request)
    }
  }

  static func json(_ device: Device, status: HTTPResponse.Status) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Response(
      status: status,
      headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(["device": device]))))
  }

  /// A problem as the read API answers one (`Problem.response`, its `Retry-After` included).
  static func problem(_ problem: Problem, _ request: Request) -> Response {
    APIServer.response(problem.response(path: request.uri.path), head: false)
  }
}
