import Crypto
import Foundation
import NIOHTTP1

extension LoopbackAPNs {
  static let pushTypes: [String: String] = [
    "alert": "", "background": "", "liveactivity": ".push-type.liveactivity", "voip": ".voip",
    "complication": ".complication", "fileprovider": ".pushkit.fileprovider", "mdm": "", "location": ".location-query",
    "pushtotalk": ".voip-ptt",
  ]

  /// Apple's checks, in order; the push as accepted, or the first refusal.
  func check(_ request: Request) -> Result<Accepted, Rejection> {
    func refuse(_ status: Int, _ reason: String, _ detail: String) -> Result<Accepted, Rejection> {
      .failure(Rejection(status: status, reason: reason, detail: detail))
    }
    let headers = request.headers
    for name in Set(headers.map { $0.name.lowercased() }) where name.hasPrefix("apns-") && headers[name].count > 1 {
      return refuse(400, "DuplicateHeaders", "\(name) appears more than once")
    }
    if let id = headers.first(name: "apns-id"), UUID(uuidString: id) == nil || id != id.lowercased() {
      return refuse(400, "BadMessageId", "apns-id '\(id)' is not a lowercase UUID")
    }
    guard request.method == .POST else { return refuse(405, "MethodNotAllowed", "\(request.method) is not POST") }
    guard request.path.hasPrefix("/3/device/") else { return refuse(404, "BadPath", "\(request.path)") }
    let token = String(request.path.dropFirst("/3/device/".count))
    guard let topic = headers.first(name: "apns-topic") else { return refuse(400, "MissingTopic", "no apns-topic") }
    if let collapse = headers.first(name: "apns-collapse-id"), collapse.utf8.count > 64 {
      return refuse(400, "BadCollapseId", "apns-collapse-id is \(collapse.utf8.count) bytes")
    }
    let pushType = headers.first(name: "apns-push-type") ?? "alert"
    if let priority = headers.first(name: "apns-priority") {
      guard ["1", "5", "10"].contains(priority), !(pushType == "background" && priority == "10") else {
        return refuse(400, "BadPriority", "apns-priority \(priority) for \(pushType)")
      }
    }
    guard let suffix = Self.pushTypes[pushType] else {
      return refuse(400, "InvalidPushType", "apns-push-type '\(pushType)'")
    }
    if let expiration = headers.first(name: "apns-expiration"), Int(expiration) == nil {
      return refuse(400, "BadExpirationDate", "apns-expiration '\(expiration)'")
    }
    guard token.count == 64, token.allSatisfy(\.isHexDigit) else {
      return refuse(400, "BadDeviceToken", "'\(token.prefix(80))' is not 64 hex digits")
    }
    let topics = state.withLock { $0.topics }
    guard topic.hasSuffix(suffix), topics.contains(String(topic.dropLast(suffix.count))) else {
      let bundle = topics.contains(topic) || topics.contains { topic.hasPrefix($0 + ".") }
      return refuse(
        400, bundle ? "DeviceTokenNotForTopic" : "TopicDisallowed", "topic '\(topic)' for push type \(pushType)")
    }
    let claims: (keyId: String, issuedAt: Int)
    switch authorize(request) {
    case .success(let verified): claims = verified
    case .failure(let rejection): return .failure(rejection)
    }
    return accepted(request, for: token, claims: claims, liveActivity: pushType == "liveactivity")
  }

  /// The request as accepted once its payload passes (`payload`): what it was sent to (a
  /// device token, a channel id), its headers, and the token's claims.
  func accepted(
    _ request: Request, for target: String, claims: (keyId: String, issuedAt: Int), liveActivity: Bool
  ) -> Result<Accepted, Rejection> {
    let payload: [String: Any]
    switch self.payload(request, liveActivity: liveActivity) {
    case .success(let read): payload = read
    case .failure(let rejection): return .failure(rejection)
    }
    var seen: [String: String] = [:]
    for (name, value) in request.headers { seen[name.lowercased()] = value }
    return .success(
      Accepted(
        deviceToken: target, headers: seen, payload: Self.sendable(payload), payloadBytes: request.body.count,
        keyId: claims.keyId, issuedAt: claims.issuedAt, connection: request.connection, stream: request.stream))
  }

  /// The provider token's checks: present, signed by a known key (checked once per token, as
  /// APNs does), under an hour old, and not a new one within 20 minutes on one connection.
  func authorize(_ request: Request) -> Result<(keyId: String, issuedAt: Int), Rejection> {
    func refuse(_ status: Int, _ reason: String, _ detail: String) -> Result<(keyId: String, issuedAt: Int), Rejection>
    {
      .failure(Rejection(status: status, reason: reason, detail: detail))
    }
    guard let authorization = request.headers.first(name: "authorization"),
      authorization.lowercased().hasPrefix("bearer ")
    else { return refuse(403, "MissingProviderToken", "no bearer token") }
    let jwt = String(authorization.dropFirst("bearer ".count))
    let claims: (keyId: String, issuedAt: Int)
    let known = state.withLock { $0.verified[jwt] }
    switch known.map({ .success($0) }) ?? verify(jwt) {
    case .success(let verified):
      claims = verified
      if known == nil { state.withLock { $0.verified[jwt] = verified } }
    case .failure(let rejection): return .failure(rejection)
    }
    let time = now()
    if time.timeIntervalSince1970 - Double(claims.issuedAt) > 3600 {
      return refuse(403, "ExpiredProviderToken", "iat \(claims.issuedAt) is over an hour old")
    }
    let tooSoon = state.withLock { state -> Bool in
      if let held = state.tokens[request.connection], held.token != jwt {
        if time.timeIntervalSince(held.since) < 20 * 60 { return true }
      }
      if state.tokens[request.connection]?.token != jwt { state.tokens[request.connection] = (jwt, time) }
      return false
    }
    if tooSoon {
      return refuse(429, "TooManyProviderTokenUpdates", "a new token within 20 minutes on one connection")
    }
    return .success(claims)
  }

  /// The body: present, at most 4096 bytes, a JSON object with `aps` (for a Live Activity, an
  /// integer `timestamp`, an `event` and a `content-state`).
  func payload(_ request: Request, liveActivity: Bool) -> Result<[String: Any], Rejection> {
    func refuse(_ status: Int, _ reason: String, _ detail: String) -> Result<[String: Any], Rejection> {
      .failure(Rejection(status: status, reason: reason, detail: detail))
    }
    guard !request.body.isEmpty else { return refuse(400, "PayloadEmpty", "no body") }
    guard request.body.count <= 4096 else {
      return refuse(413, "PayloadTooLarge", "\(request.body.count) bytes")
    }
    guard let payload = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
      let aps = payload["aps"] as? [String: Any]
    else { return refuse(400, "BadRequestPayload", "not a JSON object with an aps object") }
    if liveActivity {
      guard aps["timestamp"] is Int, ["start", "update", "end"].contains(aps["event"] as? String),
        aps["content-state"] is [String: Any]
      else { return refuse(400, "BadRequestPayload", "a Live Activity needs timestamp, event and content-state") }
    }
    return .success(payload)
  }

  /// The provider token's header, claims and signature: ES256 by a known key id, a raw r‖s
  /// signature (not DER), `iss` the key's team, an integer `iat`.
  func verify(_ jwt: String) -> Result<(keyId: String, issuedAt: Int), Rejection> {
    func invalid(_ detail: String) -> Result<(keyId: String, issuedAt: Int), Rejection> {
      .failure(Rejection(status: 403, reason: "InvalidProviderToken", detail: detail))
    }
    struct Header: Decodable {
      var alg: String
      var kid: String
    }
    struct Claims: Decodable {
      var iss: String
      var iat: Int
    }
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
      let signature = Self.base64URL(parts[2])
    else { return invalid("not three unpadded base64url parts") }
    guard let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "ES256" else {
      return invalid("the header is not {alg: ES256, kid}")
    }
    guard let claims = try? JSONDecoder().decode(Claims.self, from: claimsData) else {
      return invalid("the claims are not {iss, iat} with an integer iat")
    }
    guard let key = state.withLock({ $0.keys[header.kid] }) else { return invalid("unknown key id \(header.kid)") }
    guard claims.iss == key.teamId else { return invalid("iss \(claims.iss) is not the key's team") }
    guard signature.count == 64, let raw = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
      key.publicKey.isValidSignature(raw, for: Data("\(parts[0]).\(parts[1])".utf8))
    else { return invalid("the signature is not a raw r‖s ES256 signature by key \(header.kid)") }
    return .success((header.kid, claims.iat))
  }

  static func base64URL(_ part: Substring) -> Data? {
    guard !part.contains("="), !part.contains("+"), !part.contains("/") else { return nil }
    var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    return Data(base64Encoded: text)
  }

  /// A decoded JSON object with only Sendable values (strings, numbers, booleans, arrays, objects).
  static func sendable(_ object: [String: Any]) -> [String: any Sendable] {
    func convert(_ value: Any) -> any Sendable {
      switch value {
      case let text as String: return text
      case let number as NSNumber:
        return number.doubleValue == number.doubleValue.rounded() ? number.intValue : number.doubleValue
      case let array as [Any]: return array.map(convert)
      case let object as [String: Any]: return object.mapValues(convert)
      default: return "\(value)"
      }
    }
    return object.mapValues(convert)
  }
}
