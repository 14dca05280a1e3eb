import Foundation
import StatlineCore

/// What FCM said to one `messages:send`, and what the sender does about it (PUSH.md §3): read
/// by `details[].errorCode` first (the `FcmError`), then by the HTTP status, as a pure function
/// apart from the transport so every row has a test without a connection.
public struct FCMAnswer: Sendable, Equatable {
  /// What the sender does next.
  public enum Action: Sendable, Equatable {
    /// FCM took it (`name`: `projects/<p>/messages/<id>`).
    case accepted(name: String?)
    /// The token is no longer valid (`UNREGISTERED`, or an `INVALID_ARGUMENT` naming the
    /// token): the device stops receiving.
    case disable(why: String)
    /// The message itself cannot go (`INVALID_ARGUMENT` about another field): dropped and
    /// counted, never retried.
    case drop(String)
    /// The access token was refused (401 without an `FcmError`): fetch a new one, retry once.
    case refreshTokenAndRetryOnce
    /// The project, key or credentials are wrong (`SENDER_ID_MISMATCH`, `THIRD_PARTY_AUTH_ERROR`,
    /// a 403): reported loudly, never retried.
    case configurationError(String)
    /// FCM is busy or failing (`QUOTA_EXCEEDED`, `UNAVAILABLE`, `INTERNAL`, a 5xx): back off with
    /// jitter, not sooner than `retryAfter` seconds, until the alert expires.
    case retry(why: String, retryAfter: TimeInterval?)
  }

  public var status: Int
  /// `details[].errorCode` of the `FcmError` detail.
  public var errorCode: String?
  /// `error.status` (gRPC's name: `INVALID_ARGUMENT`, `UNAUTHENTICATED`, …).
  public var grpcStatus: String?
  public var message: String?
  /// `BadRequest` details' `fieldViolations[].field` (`message.token`, …).
  public var fields: [String]
  /// A `Retry-After` header, in seconds.
  public var retryAfter: TimeInterval?
  /// A success's `name`.
  public var name: String?

  public init(
    status: Int, errorCode: String? = nil, grpcStatus: String? = nil, message: String? = nil, fields: [String] = [],
    retryAfter: TimeInterval? = nil, name: String? = nil
  ) {
    self.status = status
    self.errorCode = errorCode
    self.grpcStatus = grpcStatus
    self.message = message
    self.fields = fields
    self.retryAfter = retryAfter
    self.name = name
  }

  /// An answer from its status, `Retry-After` header (seconds, or an HTTP date, read at `now`)
  /// and JSON body. A body that is not FCM's JSON still gives an answer, by its status.
  public init(status: Int, retryAfter header: String?, body: Data, at now: Date) {
    let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    let error = object?["error"] as? [String: Any]
    var code: String?
    var fields: [String] = []
    for detail in error?["details"] as? [[String: Any]] ?? [] {
      let type = detail["@type"] as? String ?? ""
      if type.hasSuffix("FcmError"), let found = detail["errorCode"] as? String { code = code ?? found }
      for violation in detail["fieldViolations"] as? [[String: Any]] ?? [] {
        if let field = violation["field"] as? String { fields.append(field) }
      }
    }
    self.init(
      status: status, errorCode: code, grpcStatus: error?["status"] as? String,
      message: (error?["message"] as? String).map { String($0.prefix(300)) }, fields: fields,
      retryAfter: header.flatMap { Self.seconds($0, at: now) }, name: object?["name"] as? String)
  }

  /// `Retry-After` as seconds from `now`: a number, or an HTTP date.
  static func seconds(_ header: String, at now: Date) -> TimeInterval? {
    let text = header.trimmingCharacters(in: .whitespaces)
    if let seconds = TimeInterval(text), seconds >= 0 { return seconds }
    return HTTPDate.parse(text).map { max(0, $0.timeIntervalSince(now)) }
  }

  /// The fields that are the message's target: an error naming one is about the device's token.
  static let targetFields: Set<String> = ["message.token", "message.fid", "token", "fid"]

  /// What to do.
  public var action: Action {
    let said =
      "FCM answered \(status) \(errorCode ?? grpcStatus ?? "with no error code")"
      + (message.map { ": \($0)" } ?? "")
    switch (status, errorCode) {
    case (200..<300, _): return .accepted(name: name)
    case (_, "UNREGISTERED"?), (404, nil):
      return .disable(why: "FCM UNREGISTERED: the app was uninstalled or the token expired")
    case (_, "INVALID_ARGUMENT"?), (400, nil):
      let namesToken =
        fields.contains(where: Self.targetFields.contains)
        || (message?.localizedCaseInsensitiveContains("registration token") ?? false)
      return namesToken
        ? .disable(why: "FCM INVALID_ARGUMENT: the token is not a valid registration token")
        : .drop(said)
    case (_, "SENDER_ID_MISMATCH"?):
      return .configurationError(
        "FCM SENDER_ID_MISMATCH: the token belongs to another Firebase project than push.fcm.project")
    case (_, "THIRD_PARTY_AUTH_ERROR"?):
      return .configurationError(
        "FCM THIRD_PARTY_AUTH_ERROR: the APNs or web push credentials in the Firebase project are wrong")
    case (401, nil): return .refreshTokenAndRetryOnce
    case (_, "QUOTA_EXCEEDED"?), (_, "UNAVAILABLE"?), (_, "INTERNAL"?), (429, _), (500...599, _):
      return .retry(why: said, retryAfter: retryAfter)
    default: return .configurationError(said)
    }
  }
}
