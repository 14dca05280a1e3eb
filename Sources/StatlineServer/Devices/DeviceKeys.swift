import Crypto
import Foundation
import StatlineCore

/// The API keys that may write devices, kept as SHA-256 hashes (`sha256:<64 hex digits>`), never
/// as keys: a leaked configuration lets nobody in. Several at once, so a key can be rotated
/// (add the new hash, move the clients, remove the old). A bearer key is hashed and compared
/// with each hash in constant time.
public struct DeviceKeys: Sendable, Equatable {
  private let hashes: [[UInt8]]

  /// - Throws: a configuration error naming a hash that is not `sha256:` and 64 hex digits.
  public init(hashes: [String]) throws(StatlineError) {
    var parsed: [[UInt8]] = []
    for text in hashes {
      guard let bytes = Self.parse(text) else {
        throw StatlineError(
          .configuration, "'\(text.prefix(80))' is not a key hash", context: "device key hashes",
          hint: "write sha256: and 64 hex digits; `statline devices hash-key` prints one for a key")
      }
      parsed.append(bytes)
    }
    self.hashes = parsed
  }

  /// Whether no key is configured (the device routes are then not served).
  public var isEmpty: Bool { hashes.isEmpty }

  /// How `key` is configured: `sha256:` and its hash in hex.
  public static func hash(_ key: String) -> String {
    "sha256:" + SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// Which configured hash `key` has (its place in the list), or nil: its hash is compared with
  /// every configured one, each in constant time, all of them always.
  public func match(_ key: String) -> Int? {
    let digest = Array(SHA256.hash(data: Data(key.utf8)))
    var matched: Int?
    for (index, hash) in hashes.enumerated() {
      var difference: UInt8 = 0
      for (left, right) in zip(hash, digest) { difference |= left ^ right }
      if difference == 0 && hash.count == digest.count && matched == nil { matched = index }
    }
    return matched
  }

  static func parse(_ text: String) -> [UInt8]? {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("sha256:") else { return nil }
    let hex = Array(lowered.utf8.dropFirst("sha256:".count))
    guard hex.count == 64 else { return nil }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: 64, by: 2) {
      guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
      bytes.append(byte)
    }
    return bytes
  }
}
