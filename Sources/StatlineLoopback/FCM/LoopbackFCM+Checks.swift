import CryptoExtras
import Foundation
import NIOHTTP1

extension LoopbackFCM {
  static let grpc = [
    400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE",
  ]
  static let targets = ["token", "topic", "condition", "fid"]
  static let fields: Set<String> = [
    "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic", "condition", "fid",
  ]

  /// `POST /token`: the JWT-bearer grant, checked as Google checks a service account's assertion.
  func token(_ request: LoopbackHTTP2.Request) -> LoopbackHTTP2.Answer {
    func refuse(_ error: String, _ detail: String) -> LoopbackHTTP2.Answer {
      state.withLock { $0.rejected.append(Rejection(status: 400, code: error, detail: detail)) }
      return .init(status: 400, body: LoopbackHTTP2.json(["error": error, "error_description": detail]))
    }
    guard request.method == .POST,
      request.headers.first(name: "content-type")?.hasPrefix("application/x-www-form-urlencoded") == true
    else { return refuse("invalid_request", "POST an application/x-www-form-urlencoded body") }
    var form: [String: String] = [:]
    for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
      if parts.count == 2 { form[parts[0]] = parts[1] }
    }
    guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
      return refuse("unsupported_grant_type", "grant_type is not the JWT bearer grant")
    }
    let parts = (form["assertion"] ?? "").split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerData = LoopbackAPNs.base64URL(parts[0]),
      let claimsData = LoopbackAPNs.base64URL(parts[1]), let signature = LoopbackAPNs.base64URL(parts[2]),
      let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
      let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
    else { return refuse("invalid_grant", "Invalid JWT: not three base64url parts of JSON") }
    guard header["alg"] as? String == "RS256" else { return refuse("invalid_grant", "Invalid JWT: alg must be RS256") }
    guard let email = claims["iss"] as? String, let account = state.withLock({ $0.accounts[email] }) else {
      return refuse("invalid_grant", "Invalid grant: account not found")
    }
    guard header["kid"] as? String ?? account.keyId == account.keyId,
      account.key.isValidSignature(
        _RSA.Signing.RSASignature(rawRepresentation: signature), for: Data("\(parts[0]).\(parts[1])".utf8),
        padding: .insecurePKCS1v1_5)
    else { return refuse("invalid_grant", "Invalid JWT Signature.") }
    guard claims["aud"] as? String == tokenURI else {
      return refuse("invalid_grant", "Invalid JWT: Failed audience check. The right audience is \(tokenURI)")
    }
    let time = now().timeIntervalSince1970
    guard let iat = claims["iat"] as? Int, let exp = claims["exp"] as? Int, exp - iat > 0, exp - iat <= 3600,
      Double(exp) > time, Double(iat) < time + 300
    else { return refuse("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes)") }
    guard
      (claims["scope"] as? String ?? "").split(separator: " ").contains(where: {
        $0.hasSuffix("/auth/firebase.messaging")
      })
    else { return refuse("invalid_scope", "Invalid OAuth scope") }
    let token = "ya29.loopback-" + UUID().uuidString.lowercased()
    let lifetime = state.withLock { state -> Int in
      state.access[token] = now().addingTimeInterval(TimeInterval(state.tokenLifetime))
      state.issued += 1
      state.everIssued.append(token)
      return state.tokenLifetime
    }
    return .init(
      status: 200,
      body: LoopbackHTTP2.json(["access_token": token, "expires_in": lifetime, "token_type": "Bearer"]))
  }

  /// `POST /v1/projects/<project>/messages:send`.
  func send(_ request: LoopbackHTTP2.Request, project: String) -> LoopbackHTTP2.Answer {
    let authorization = request.headers.first(name: "authorization") ?? ""
    let bearer = authorization.lowercased().hasPrefix("bearer ") ? String(authorization.dropFirst(7)) : ""
    let (live, expected) = state.withLock { state in ((state.access[bearer] ?? .distantPast) > now(), state.project) }
    guard request.method == .POST else { return refuse(404, nil, "NOT_FOUND", "not POST") }
    guard live else {
      return refuse(
        401, nil, "UNAUTHENTICATED", "Request had invalid authentication credentials.",
        headers: [("www-authenticate", #"Bearer realm="https://accounts.google.com/""#)])
    }
    guard project == expected else {
      return refuse(403, "SENDER_ID_MISMATCH", "PERMISSION_DENIED", "SenderId mismatch")
    }
    let message: [String: Any]
    let target: (field: String, value: String)
    switch check(request.body) {
    case .failure(let problem):
      return refuse(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", problem.description, field: problem.field)
    case .success(let read): (message, target) = read
    }
    let scripted = state.withLock { state -> Scripted? in
      for key in [target.value, "*"] {
        if var queue = state.scripts[key], !queue.isEmpty {
          let first = queue.removeFirst()
          state.scripts[key] = queue
          return first
        }
      }
      return nil
    }
    if let scripted, scripted.status != 200 {
      var answer = refuse(
        scripted.status, scripted.code, Self.grpc[scripted.status] ?? "UNKNOWN",
        "scripted \(scripted.code ?? String(scripted.status))", field: scripted.field,
        headers: scripted.retryAfter.map { [("retry-after", $0)] } ?? [])
      answer.delay = scripted.delay
      answer.never = scripted.never
      return answer
    }
    let id = state.withLock { state -> Int in
      state.acceptedCount += 1
      if state.keepsAccepted {
        state.accepted.append(
          Accepted(
            target: target.value, targetField: target.field, message: LoopbackAPNs.sendable(message),
            connection: request.connection, stream: request.stream))
      }
      return state.acceptedCount
    }
    if let log {
      // FCM's ttl counts from its acceptance ("300s", "1.5s").
      let ttl = ((message["android"] as? [String: Any])?["ttl"] as? String).flatMap { Double($0.dropLast()) }
      log.accepted(
        api: "fcm", target: target.value, payload: message["data"] as? [String: Any] ?? [:],
        connection: request.connection, expires: ttl.map { now().timeIntervalSince1970 + $0 })
    }
    var answer = LoopbackHTTP2.Answer(
      status: 200, body: LoopbackHTTP2.json(["name": "projects/\(project)/messages/0:\(id)"]))
    answer.delay = scripted?.delay
    answer.never = scripted?.never ?? false
    return answer
  }

  /// The message, and its target; or the first problem and the field it is in.
  func check(_ body: [UInt8]) -> Result<([String: Any], (field: String, value: String)), Problem> {
    guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
      let message = object["message"] as? [String: Any]
    else { return .failure(Problem(#"the body must be {"message": {...}}"#, "message")) }
    if let unknown = Set(object.keys).subtracting(["message", "validate_only"]).sorted().first
      ?? Set(message.keys).subtracting(Self.fields).sorted().first
    {
      return .failure(Problem("Invalid JSON payload received. Unknown name \"\(unknown)\"", unknown))
    }
    let targets = Self.targets.filter { message[$0] != nil }
    guard targets.count == 1, let value = message[targets[0]] as? String, !value.isEmpty else {
      return .failure(Problem("exactly one of token, topic, condition or fid must be set", "message"))
    }
    if let data = message["data"] {
      guard let strings = data as? [String: Any], strings.values.allSatisfy({ $0 is String }) else {
        return .failure(Problem("message.data must map strings to strings", "message.data"))
      }
      if let reserved = strings.keys.first(where: {
        $0 == "from" || $0 == "message_type" || $0.hasPrefix("google") || $0.hasPrefix("gcm")
      }) {
        return .failure(Problem("data key \(reserved) is reserved", "message.data"))
      }
    }
    let android = message["android"] as? [String: Any] ?? [:]
    if let ttl = android["ttl"] {
      guard let text = ttl as? String, text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds >= 0,
        seconds <= 2_419_200
      else { return .failure(Problem(#"android.ttl must be a duration like "300s""#, "message.android.ttl")) }
    }
    if let priority = android["priority"], !["NORMAL", "HIGH"].contains(priority as? String ?? "") {
      return .failure(Problem("android.priority must be NORMAL or HIGH", "message.android.priority"))
    }
    var content = message
    for key in Self.targets { content[key] = nil }
    let size = (try? JSONSerialization.data(withJSONObject: content))?.count ?? 0
    guard size <= 4096 else { return .failure(Problem("message is too big (\(size) bytes > 4096)", "message")) }
    return .success((message, (targets[0], value)))
  }

  struct Problem: Error {
    var description: String
    var field: String
    init(_ description: String, _ field: String) {
      self.description = description
      self.field = field
    }
  }
}
