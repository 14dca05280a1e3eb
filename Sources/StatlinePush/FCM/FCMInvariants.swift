import Foundation
import StatlineCore

/// What must hold of FCM's answers and service-account files, whatever their bytes (the fuzz
/// targets `fcm-answer` and `fcm-service-account` and the property tests run these): an answer
/// always comes to one action, the one its status and error code say, quoting at most a bounded
/// part of the body; a service-account file is read whole or refused as a configuration error
/// that never quotes its private key. Nil when all holds, else what broke.
public enum FCMInvariants {
  /// `data`: two bytes of status (100 + the first byte's value × 2, so 100…610), a
  /// `Retry-After` up to a NUL, then the body.
  public static func brokenAnswer(_ data: Data) -> String? {
    let bytes = [UInt8](data)
    guard bytes.count >= 1 else { return nil }
    let status = 100 + Int(bytes[0]) * 2
    let rest = bytes.dropFirst()
    let split = rest.firstIndex(of: 0) ?? rest.endIndex
    let header = String(decoding: rest[rest.startIndex..<split], as: UTF8.self)
    let body = Data(split < rest.endIndex ? rest[(split + 1)...] : [])
    let answer = FCMAnswer(
      status: status, retryAfter: header.isEmpty ? nil : header, body: body, at: Date(timeIntervalSince1970: 1e9))
    if let retry = answer.retryAfter, !(retry >= 0 && retry.isFinite) { return "a Retry-After of \(retry) s" }
    if (answer.message?.count ?? 0) > 300 { return "the message is not bounded" }
    switch answer.action {
    case .accepted: if !(200..<300).contains(status) { return "a \(status) was taken for accepted" }
    case .retry(let why, _), .drop(let why), .configurationError(let why), .disable(let why):
      if (200..<300).contains(status) { return "a \(status) was not accepted" }
      if why.utf8.count > 1_000 { return "the reason quotes \(why.utf8.count) bytes" }
    case .refreshTokenAndRetryOnce: if status != 401 { return "a \(status) refreshed the token" }
    }
    return nil
  }

  /// `data` as a service-account file.
  public static func brokenServiceAccount(_ data: Data) -> String? {
    let key = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["private_key"] as? String
    do {
      let account = try FCMServiceAccount(json: data, file: "fuzz.json")
      guard account.tokenURI.hasPrefix("https://"), account.clientEmail.contains("@") else {
        return "an account without an https token URI or an address was taken"
      }
      if let key, key.count > 40, "\(account)".contains(key) { return "the account's description quotes its key" }
      return nil
    } catch {
      if let key, key.count >= 24, "\(error)".contains(key.prefix(200).suffix(24)) { return "the error quotes the key" }
      return error.kind == .configuration ? nil : "refused as \(error.kind), not a configuration error"
    }
  }
}
