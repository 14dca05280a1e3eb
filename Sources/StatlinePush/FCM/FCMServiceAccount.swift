import CryptoExtras
import Foundation
import StatlineCore

/// A Firebase service account as Google's console gives it (the JSON file: `client_email`,
/// `private_key` (RSA, PKCS#8 PEM), `private_key_id`, `token_uri`, `project_id`): what FCM's
/// OAuth assertion is made from. Read once at start; `check --config` reads it too. Its private
/// key is never printed: errors name the file and the field, never quote it.
public struct FCMServiceAccount: Sendable {
  public let clientEmail: String
  public let keyId: String
  /// Where the assertion is exchanged for an access token (also its `aud`): always the file's,
  /// which is how a test points the sender at a loopback fake.
  public var tokenURI: String
  /// The file's `project_id` (the configuration may name another).
  public let projectId: String?
  let key: _RSA.Signing.PrivateKey

  /// The smallest RSA key Google issues is 2048 bits; a shorter one is refused at start.
  static let minimumBits = 2048

  /// - Throws: a configuration error naming the field that is wrong (never quoting the key).
  public init(json: Data, file: String? = nil) throws(StatlineError) {
    func refuse(_ what: String, _ hint: String) -> StatlineError {
      StatlineError(.configuration, "the FCM service account \(what)", location: file, hint: hint)
    }
    let fromConsole = "the JSON file Firebase's console gives (Project settings → Service accounts), unchanged"
    guard let object = try? JSONSerialization.jsonObject(with: json), let fields = object as? [String: Any] else {
      throw refuse("is not a JSON object", fromConsole)
    }
    if let type = fields["type"] as? String, type != "service_account" {
      throw refuse("has type '\(type.prefix(40))', not service_account", fromConsole)
    }
    func text(_ name: String) throws(StatlineError) -> String {
      guard let value = fields[name] as? String, !value.isEmpty else { throw refuse("has no \(name)", fromConsole) }
      return value
    }
    clientEmail = try text("client_email")
    guard clientEmail.contains("@") else { throw refuse("client_email is not an address", fromConsole) }
    keyId = try text("private_key_id")
    tokenURI = try text("token_uri")
    guard let url = URL(string: tokenURI), url.scheme == "https", url.host != nil else {
      throw refuse("token_uri is not an https URL", fromConsole)
    }
    projectId = fields["project_id"] as? String
    let pem = try text("private_key")
    do {
      key = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
    } catch {
      throw refuse(
        "private_key is not an RSA private key of \(Self.minimumBits) bits or more in PEM", fromConsole)
    }
  }

  /// The account in `file`.
  /// - Throws: a configuration error naming the file (never quoting it).
  public init(file: String) throws(StatlineError) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw StatlineError(
        .configuration, "push.fcm.serviceAccountFile: cannot read it: \(error.localizedDescription)",
        location: file, hint: "the service-account JSON file, readable by the job")
    }
    try self.init(json: data, file: file)
  }

  /// An account made here (tests, the demo), never one Google knows, whose token endpoint is
  /// `tokenURI`.
  public init(generatedFor clientEmail: String, projectId: String, tokenURI: String) {
    // Generating a 2048-bit key cannot fail with BoringSSL; a failure here is a broken build.
    key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    self.clientEmail = clientEmail
    self.keyId = String(UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(40))
    self.tokenURI = tokenURI
    self.projectId = projectId
  }

  /// The public half as PEM, for a fake that checks signatures.
  public var publicKeyPEM: String { key.publicKey.pemRepresentation }

  /// The account as Google's console writes it (the demo and tests write this file).
  public var json: Data {
    let object: [String: String] = [
      "type": "service_account", "project_id": projectId ?? "", "private_key_id": keyId,
      "private_key": key.pemRepresentation, "client_email": clientEmail, "token_uri": tokenURI,
    ]
    return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
  }
}

extension FCMServiceAccount: CustomStringConvertible {
  /// The account without its key (`client_email`, key id's last 8).
  public var description: String { "\(clientEmail) (key …\(keyId.suffix(8)))" }
}
