import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StatlineCanonical
import StatlineCore
import StatlineSQLite
import StatlineServer
import Synchronization
import Testing

/// `/v1/devices` through a real HTTP client, over a SQLite store the read API reads read-only:
/// keys by hash (two at once, for rotation), an idempotent upsert that resolves teams, every bad
/// field a 400 naming it with nothing stored, no token quoted whole, and limits per address and
/// per key on an injected clock.
@Suite(.timeLimit(.minutes(1))) struct DeviceAPITests {
  static let key = "k-1f0e9d8c7b6a"
  static let rotated = "k-2a3b4c5d6e7f"
  static let token = String(repeating: "ab12", count: 16)

  final class Seconds: Sendable {
    let value = Mutex(1_000.0)
    func callAsFunction() -> Double { value.withLock { $0 } }
    func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
  }

  static func send(
    _ url: String, _ method: HTTPMethod, body: String? = nil, key: String? = DeviceAPITests.key
  ) async throws -> ReadAPITests.Answer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: body))
    }
    let response = try await ReadAPITests.client.execute(request, timeout: .seconds(10))
    var fields: [String: String] = [:]
    for (name, value) in response.headers { fields[name.lowercased()] = value }
    let collected = try await response.body.collect(upTo: 1 << 20)
    return ReadAPITests.Answer(status: Int(response.status.code), headers: fields, body: Data(buffer: collected))
  }

  static func body(token: String = token, kind: String = "apns", extra: String = "") -> String {
    #"{"kind":"\#(kind)","token":"\#(token)","topic":"com.example.scores","teams":["Duke","team:457"],"alerts":["final","score"],"quietHours":{"start":"22:00","end":"07:00","timeZone":"America/New_York"}\#(extra)}"#
  }

  func withDevices(
    limits: DeviceRoutes.Limits = DeviceRoutes.Limits(), seconds: Seconds = Seconds(),
    _ body: (String, SQLiteDeviceRegistry) async throws -> Void
  ) async throws {
    let (path, _) = try await ReadAPITests.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let registry = try SQLiteDeviceRegistry(path: path)
    let routes = DeviceRoutes(
      registry: registry, keys: try DeviceKeys(hashes: [DeviceKeys.hash(Self.key), DeviceKeys.hash(Self.rotated)]),
      teams: try TeamRegistry.seeded(), limits: limits, now: { ReadAPITests.now }, seconds: { seconds() })
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), now: { ReadAPITests.now })
    try await ReadAPITests.withServer(api: api, groups: [routes]) { base in try await body(base, registry) }
  }

  @Test func aDeviceIsRegisteredReadReplacedAndDeletedWithAKey() async throws {
    try await withDevices { base, registry in
      let url = base + "/v1/devices"
      let anonymous = try await Self.send(url, .POST, body: Self.body(), key: nil)
      #expect(anonymous.status == 401 && anonymous.headers["www-authenticate"] == "Bearer")
      #expect(try await Self.send(url, .POST, body: Self.body(), key: "wrong").status == 401)
      #expect(try await registry.deviceCounts().isEmpty, "nothing stored without a key")

      let created = try await Self.send(url, .POST, body: Self.body())
      #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
      let device = try #require(created.json["device"] as? [String: Any])
      let id = try #require(device["id"] as? String)
      #expect(created.headers["location"] == "/v1/devices/\(id)")
      #expect(device["teams"] as? [String] == ["team:193", "team:457"], "a school's name answered with its id")
      #expect(device["alerts"] as? [String] == ["score", "final"] && device["environment"] as? String == "production")
      #expect(device["registeredAt"] as? String == "2026-03-07T20:00:00Z")
      // The answer and a problem fit the OpenAPI document.
      let document = try JSONDecoder().decode(
        OpenAPITests.JSON.self, from: try await ReadAPITests.get(base + "/openapi.json").body)
      let fits = OpenAPITests.check(
        try JSONDecoder().decode(OpenAPITests.JSON.self, from: created.body),
        .object(["$ref": .string("#/components/schemas/DeviceAnswer")]), document, at: "POST /v1/devices")
      #expect(fits.isEmpty, "\(fits)")
      #expect(document["paths"]?["/v1/devices"]?["post"]?["responses"]?["201"] != nil)
      let problem = OpenAPITests.check(
        try JSONDecoder().decode(OpenAPITests.JSON.self, from: anonymous.body),
        .object(["$ref": .string("#/components/schemas/Problem")]), document, at: "401")
      #expect(problem.isEmpty, "\(problem)")

      // The same token again, with the rotated key: the same device.
      let again = try await Self.send(
        url, .POST, body: Self.body(extra: #","environment":"sandbox""#), key: Self.rotated)
      #expect(again.status == 200 && (again.json["device"] as? [String: Any])?["id"] as? String == id)
      #expect((again.json["device"] as? [String: Any])?["environment"] as? String == "sandbox")

      let read = try await Self.send(url + "/" + id, .GET)
      #expect(read.status == 200 && (read.json["device"] as? [String: Any])?["token"] as? String == Self.token)
      #expect(try await Self.send(url + "/" + id, .GET, key: nil).status == 401)
      #expect(try await Self.send(url + "/dev_000", .GET).status == 404)

      let elsewhere = try await Self.send(url + "/dev_000", .PUT, body: Self.body())
      #expect(elsewhere.status == 400 && (elsewhere.json["detail"] as? String)?.hasPrefix("token") == true)
      let army = #"{"kind":"apns","token":"\#(Self.token)","topic":"com.example.scores","teams":["Army West Point"]}"#
      let replaced = try await Self.send(url + "/" + id, .PUT, body: army)
      let now = try #require(replaced.json["device"] as? [String: Any])
      #expect(replaced.status == 200 && now["teams"] as? [String] == ["team:725"] && now["alerts"] == nil)
      #expect(now["registeredAt"] as? String == "2026-03-07T20:00:00Z", "kept")

      #expect(try await Self.send(url + "/" + id, .DELETE).status == 204)
      #expect(try await Self.send(url + "/" + id, .DELETE).status == 404)
      #expect(try await registry.deviceCounts().isEmpty)

      // The read API is as open as it was.
      #expect(try await ReadAPITests.get(base + "/v1/scoreboard?sport=lacrosse-men").status == 200)
    }
  }

  @Test(arguments: [
    (#"{"kind":"apns","token":"abc","topic":"com.example.scores"}"#, "token"),
    (#"{"kind":"pager","token":"x","topic":"com.example.scores"}"#, "kind"),
    (#"{"token":"x","topic":"t"}"#, "kind is missing"),
    (
      body(extra: #","teams":["Hogwarts"]"#).replacingOccurrences(of: #""teams":["Duke","team:457"],"#, with: ""),
      "teams[0]"
    ),
    (body().replacingOccurrences(of: "America/New_York", with: "Mars/Olympus"), "quietHours.timeZone"),
    (body().replacingOccurrences(of: "22:00", with: "25:00"), "quietHours.start"),
    (body().replacingOccurrences(of: #""final","score""#, with: #""final","everything""#), "alerts[1]"),
    (body(extra: #","colour":"blue""#), "colour"),
    (body(kind: "apns-liveactivity"), "gameId"),
    (body(kind: "apns-channel"), "kind"),
    (body(extra: #","gameId":"game:1""#), "gameId"),
    (body(extra: #","tokenType":"installation""#), "tokenType"),
    (body(token: "fcm-token", kind: "fcm", extra: #","tokenType":"pigeon""#), "tokenType"),
    ("[1,2,3]", "the body"),
    ("not json", "the body"),
  ])
  func aBadFieldIsA400NamingItAndNothingIsStored(_ body: String, _ field: String) async throws {
    try await withDevices { base, registry in
      let answer = try await Self.send(base + "/v1/devices", .POST, body: body)
      #expect(answer.status == 400, "\(String(decoding: answer.body, as: UTF8.self))")
      #expect(answer.headers["content-type"]?.hasPrefix("application/problem+json") == true)
      let detail = try #require(answer.json["detail"] as? String)
      #expect(detail.hasPrefix(field), "\(detail)")
      #expect(try await registry.deviceCounts().isEmpty)
    }
  }

  @Test func anAndroidPhoneIsRegisteredWithItsTokenType() async throws {
    try await withDevices { base, registry in
      let url = base + "/v1/devices"
      let plain = try await Self.send(url, .POST, body: Self.body(token: "fcm-reg:APA91b-token_1", kind: "fcm"))
      #expect(plain.status == 201, "\(String(decoding: plain.body, as: UTF8.self))")
      #expect((plain.json["device"] as? [String: Any])?["tokenType"] as? String == "registration")
      let fid = try await Self.send(
        url, .POST, body: Self.body(token: "cK2xYz-installation", kind: "fcm", extra: #","tokenType":"installation""#))
      let device = try #require(fid.json["device"] as? [String: Any])
      #expect(fid.status == 201 && device["tokenType"] as? String == "installation")
      let stored = try #require(try await registry.device(id: device["id"] as? String ?? ""))
      #expect(stored.kind == .fcm && stored.tokenType == .installation)
      let apple = try await Self.send(url, .POST, body: Self.body())
      #expect((apple.json["device"] as? [String: Any])?["tokenType"] == nil, "an APNs token has no type")
    }
  }

  @Test func aGamesOpenBroadcastChannelIsFoundByGameTopicAndEnvironment() async throws {
    try await withDevices { base, registry in
      let game = "game:2026-03-07:lacrosse-men:193~457"
      let url = base + "/v1/devices/channels/\(game)?topic=com.example.scores"
      #expect(try await Self.send(url, .GET).status == 404, "none before the game starts")
      #expect(try await Self.send(base + "/v1/devices/channels/\(game)", .GET).status == 400, "no topic")
      #expect(try await Self.send(url, .GET, key: nil).status == 401)
      let channel = Device.channel(
        gameId: game, topic: "com.example.scores", environment: .production, channelId: "dW5pdGNoYW5uZWw=",
        at: "2026-03-07T17:00:00Z")
      _ = try await registry.upsertDevice(channel)
      let answer = try await Self.send(url, .GET)
      #expect(answer.status == 200)
      let found = try #require(answer.json["channel"] as? [String: Any])
      #expect(found["id"] as? String == "dW5pdGNoYW5uZWw=" && found["gameId"] as? String == game)
      #expect(found["environment"] as? String == "production" && found["openedAt"] as? String == "2026-03-07T17:00:00Z")
      let document = try JSONDecoder().decode(
        OpenAPITests.JSON.self, from: try await ReadAPITests.get(base + "/openapi.json").body)
      let fits = OpenAPITests.check(
        try JSONDecoder().decode(OpenAPITests.JSON.self, from: answer.body),
        .object(["$ref": .string("#/components/schemas/ChannelAnswer")]), document, at: "GET channel")
      #expect(fits.isEmpty, "\(fits)")
      #expect(try await Self.send(url + "&environment=sandbox", .GET).status == 404, "another environment's")
      #expect(try await Self.send(url + "&environment=moon", .GET).status == 400)
      _ = try await registry.suspendDevice(
        id: channel.id, .init(kind: .quarantined, why: "ChannelNotRegistered", since: "2026-03-07T18:00:00Z"))
      #expect(try await Self.send(url, .GET).status == 404, "a channel APNs no longer knows is not offered")
    }
  }

  @Test func aTokenIsNeverQuotedWholeAndAnOversizeBodyIsRefused() async throws {
    try await withDevices { base, registry in
      let long = String(repeating: "f", count: 62) + "9z"
      let answer = try await Self.send(base + "/v1/devices", .POST, body: Self.body(token: long))
      let detail = try #require(answer.json["detail"] as? String)
      #expect(answer.status == 400 && !detail.contains(long) && detail.contains("fffff9z"), "\(detail)")
      let huge = Self.body(extra: #","pad":""# + String(repeating: "x", count: 20_000) + #"""#)
      #expect(try await Self.send(base + "/v1/devices", .POST, body: huge).status == 413)
      #expect(try await registry.deviceCounts().isEmpty)
    }
  }

  @Test func requestsAreLimitedPerAddressAndPerKey() async throws {
    var limits = DeviceRoutes.Limits()
    limits.addressRate = 1
    limits.addressBurst = 3
    let seconds = Seconds()
    try await withDevices(limits: limits, seconds: seconds) { base, _ in
      let url = base + "/v1/devices/dev_1"
      for _ in 0..<3 { #expect(try await Self.send(url, .GET, key: "guess").status == 401) }
      let limited = try await Self.send(url, .GET, key: "guess")
      #expect(limited.status == 429 && limited.headers["retry-after"] == "1", "guessing keys costs the guesser")
      seconds.advance(1)
      #expect(try await Self.send(url, .GET).status == 404)
    }
  }

  @Test func eachKeyHasItsOwnLimit() async throws {
    var perKey = DeviceRoutes.Limits()
    perKey.keyRate = 1
    perKey.keyBurst = 2
    try await withDevices(limits: perKey) { base, _ in
      let url = base + "/v1/devices/dev_1"
      for _ in 0..<2 { #expect(try await Self.send(url, .GET).status == 404) }
      let limited = try await Self.send(url, .GET)
      #expect(limited.status == 429 && limited.headers["retry-after"] != nil)
      #expect(try await Self.send(url, .GET, key: Self.rotated).status == 404, "each key its own bucket")
    }
  }
}
