import Crypto
import Foundation

/// The Standard Webhooks signature: `webhook-signature: v1,<base64 HMAC-SHA256>` over
/// `"{webhook-id}.{webhook-timestamp}.{body}"`, with the secret's key bytes.
public enum WebhookSignature {
  /// The key of a secret: `whsec_` + base64 (the specification's form) gives the decoded bytes;
  /// any other string is used as its UTF-8 bytes. Nil for `whsec_` with invalid base64.
  public static func key(fromSecret secret: String) -> [UInt8]? {
    guard secret.hasPrefix("whsec_") else { return Array(secret.utf8) }
    return Data(base64Encoded: String(secret.dropFirst(6))).map(Array.init)
  }

  /// `v1,` + base64 of the HMAC.
  public static func sign(id: String, timestamp: Int, body: Data, key: [UInt8]) -> String {
    var message = Data("\(id).\(timestamp).".utf8)
    message.append(body)
    let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
    return "v1," + Data(mac).base64EncodedString()
  }

  /// Whether one of the space-separated signatures of a `webhook-signature` header is valid (as
  /// a receiver checks; used by the tests' receiver).
  public static func verify(header: String, id: String, timestamp: Int, body: Data, key: [UInt8]) -> Bool {
    let expected = sign(id: id, timestamp: timestamp, body: body, key: key)
    return header.split(separator: " ").contains { $0 == expected }
  }
}
