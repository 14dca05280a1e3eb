import Crypto
import Foundation
import StatlineCore

/// The `.p8` key APNs token auth signs with (a PKCS#8 P-256 key), its 10-character key id and
/// the 10-character team id it belongs to. Read once at start; `check --config` reads it too.
/// Its text is never printed.
public struct APNsSigningKey: Sendable {
  public let keyId: String
  public let teamId: String
  let key: P256.Signing.PrivateKey

  /// - Throws: a configuration error naming what is wrong (never quoting the key).
  public init(pem: String, keyId: String, teamId: String, file: String? = nil) throws(StatlineError) {
    for (name, value) in [("keyId", keyId), ("teamId", teamId)]
    where value.count != 10 || !value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
      throw StatlineError(
        .configuration, "the APNs \(name) '\(value.prefix(20))' is not 10 letters and digits", location: file,
        hint: "Apple's developer account shows the key id beside the key, and the team id under Membership")
    }
    do {
      key = try P256.Signing.PrivateKey(pemRepresentation: pem)
    } catch {
      throw StatlineError(
        .configuration, "the APNs key is not a P-256 private key in PEM (PKCS#8, as Apple's AuthKey_\(keyId).p8 is)",
        location: file, hint: "give the .p8 file Apple let you download once, unchanged")
    }
    self.keyId = keyId
    self.teamId = teamId
  }

  /// The key in `file` (Apple's `AuthKey_<keyId>.p8`).
  /// - Throws: a configuration error naming the file (never quoting it).
  public init(file: String, keyId: String, teamId: String) throws(StatlineError) {
    let pem: String
    do {
      pem = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw StatlineError(
        .configuration, "push.apns.keyFile: cannot read the APNs key: \(error.localizedDescription)", location: file,
        hint: "the .p8 file Apple let you download, readable by the job")
    }
    try self.init(pem: pem, keyId: keyId, teamId: teamId, file: file)
  }

  /// A key made here (tests, the demo): never one Apple knows.
  public init(generatedWithKeyId keyId: String, teamId: String) {
    key = P256.Signing.PrivateKey()
    self.keyId = keyId
    self.teamId = teamId
  }

  /// The public half, for a fake that checks signatures.
  public var publicKeyPEM: String { key.publicKey.pemRepresentation }
  public var privateKeyPEM: String { key.pemRepresentation }
}
