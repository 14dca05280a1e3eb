import Foundation
import Testing

@testable import NCAASource

/// A persisted query's variables and URL parts, written without Foundation where they are
/// plain, must be what Foundation writes: a target's URL is its identity in the store.
@Suite struct PersistedQueryWritingTests {
  static func foundation(_ object: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func plainVariablesAreWrittenAsJSONSerializationWritesThem() throws {
    let cases: [[String: Any]] = [
      [:], ["contestId": "6599967", "staticTestEnv": NSNull()],
      ["id": "6599967", "week": NSNull(), "staticTestEnv": NSNull()],
      ["sportCode": "MLA", "division": 1, "seasonYear": 2025, "contestDate": "03/07/2026", "path": "c/d ~%"],
      ["zeta": -12, "Alpha": 0, "beta": " spaced ", "Gamma": "\u{7F}"],
    ]
    for variables in cases {
      #expect(PersistedQuery.plainCompact(variables) != nil, "\(variables)")
      #expect(PersistedQuery.compact(variables) == Self.foundation(variables), "\(variables)")
    }
    // Keys JSONSerialization orders its own way (case, punctuation, digits): left to it.
    for variables: [String: Any] in [["z": 1, "Z": 2], ["_": 1, "~": 2, "a": 3], ["a10": 1, "a9": 2]] {
      #expect(PersistedQuery.plainCompact(variables) == nil, "\(variables)")
      #expect(PersistedQuery.compact(variables) == Self.foundation(variables), "\(variables)")
    }
    // Not plain: left to JSONSerialization, whatever it writes.
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(#"{"flag":true,"n":2.5,"q":"a\"b","é":"x","t":"\n"}"#.utf8))
        as? [String: Any])
    for (key, value) in parsed {
      #expect(PersistedQuery.plainCompact([key: value]) == nil, "\(key)")
      #expect(PersistedQuery.compact([key: value]) == Self.foundation([key: value]), "\(key)")
    }
  }

  @Test func urlPartsArePercentEncodedAsFoundationEncodesThem() {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    var random = SystemRandomNumberGenerator()
    var texts = [#"{"contestId":"6599967","staticTestEnv":null}"#, "GetContests_web", "", "café ü", "a b+c&d=e"]
    for _ in 0..<500 {
      texts.append(
        String(
          (0..<Int.random(in: 0...30, using: &random)).map { _ in
            Character(Unicode.Scalar(UInt8.random(in: 0...127, using: &random)))
          }))
    }
    for text in texts {
      #expect(
        PersistedQuery.encode(text) == text.addingPercentEncoding(withAllowedCharacters: allowed),
        "\(text.debugDescription)")
    }
  }

  /// The game-centre URLs a scoreboard writes for every game, written directly, are the URLs the
  /// general writer gives (plain ids; anything else goes through it).
  @Test func contestURLsAreWhatTheGeneralWriterWrites() {
    for id in ["6599967", "1", "abc123", "x y", "é", ""] {
      for origin in [nil, "http://127.0.0.1:8080/"] {
        for operation in [PersistedQuery.playByPlay, PersistedQuery.boxScore] {
          #expect(
            PersistedQuery.contestURL(operation: operation, contestId: id, origin: origin)
              == PersistedQuery.url(
                operation: operation, variables: ["contestId": id, "staticTestEnv": NSNull()], origin: origin),
            "\(id)")
        }
        #expect(
          PersistedQuery.gameInfoURL(contestId: id, origin: origin)
            == PersistedQuery.url(
              operation: PersistedQuery.gameInfo, variables: ["id": id, "week": NSNull(), "staticTestEnv": NSNull()],
              origin: origin),
          "\(id)")
      }
    }
  }
}
