import Foundation
import StatlineCanonical
import StatlineCore
import StatlineServer
import Testing

/// The device API's decoding on bodies nobody wrote for it: 20,000 deterministic mutations of
/// good bodies (bytes flipped, cut, repeated; fields swapped for other JSON types, huge strings,
/// deep nesting, unicode in tokens and zones) hold `DeviceInput.broken(by:)`'s invariants: an
/// accepted device is whole, a refused one is a bounded 400. `scripts/fuzz 600 device-input`
/// runs the same check under libFuzzer.
@Suite struct DeviceDecodingTests {
  static let registry = try! TeamRegistry.seeded()
  static let now = Date(timeIntervalSince1970: 1_772_910_000)
  static let seeds = [
    #"{"kind":"apns","token":"\#(String(repeating: "ab", count: 32))","environment":"production","topic":"com.example.scores","teams":["team:193","Duke"],"alerts":["score","final"],"quietHours":{"start":"22:00","end":"07:00","timeZone":"America/New_York"}}"#,
    #"{"kind":"apns-liveactivity","token":"\#(String(repeating: "0f", count: 32))","environment":"sandbox","topic":"com.example.scores","teams":[],"gameId":"game:2026-03-07:lacrosse-men:193~457"}"#,
    #"{"kind":"fcm","token":"fcm-token:APA91b\#(String(repeating: "x", count: 140))","environment":"production","topic":"my-project","teams":["team:457"]}"#,
  ]

  /// SplitMix64: the same mutations every run.
  struct Mix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let replacements: [String] = [
    "null", "true", "0", "-1", "1e308", "[]", "{}", "\"\"", "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]",
    "\"\(String(repeating: "a", count: 20_000))\"", "\"\\u0000\"", "\"ÅÖ日本\"", "[\"team:193\",\"team:193\"]",
    "\"Mars/Olympus\"", "\"25:99\"", "[\"score\",\"nope\"]", "{\"start\":\"22:00\"}",
  ]

  static func mutate(_ seed: String, _ random: inout Mix) -> Data {
    var bytes = Array(seed.utf8)
    switch random.next() % 6 {
    case 0:
      for _ in 0..<(1 + random.next() % 4) where !bytes.isEmpty {
        bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
      }
    case 1:
      bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count + 1))))
    case 2:
      let at = Int(random.next() % UInt64(bytes.count))
      bytes.insert(contentsOf: bytes[at...].prefix(Int(random.next() % 64)), at: at)
    default:
      // A field's value swapped for another JSON value.
      guard var object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { break }
      let keys = object.keys.sorted() + ["extra"]
      let key = keys[Int(random.next() % UInt64(keys.count))]
      let text = replacements[Int(random.next() % UInt64(replacements.count))]
      object[key] = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
      bytes = Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data(bytes))
    }
    return Data(bytes)
  }

  @Test func theSeedsAreTakenWhole() {
    for seed in Self.seeds {
      #expect(DeviceInput.broken(by: Data(seed.utf8), teams: Self.registry, at: Self.now) == nil)
      #expect((try? DeviceInput.device(from: Data(seed.utf8), teams: Self.registry, at: Self.now)) != nil, "\(seed)")
    }
  }

  @Test func twentyThousandMutatedBodiesAreTakenWholeOrRefusedAsA400() {
    var random = Mix(state: 52)
    var accepted = 0
    for round in 0..<20_000 {
      let body = Self.mutate(Self.seeds[round % Self.seeds.count], &random)
      if let broken = DeviceInput.broken(by: body, teams: Self.registry, at: Self.now) {
        Issue.record("round \(round): \(broken): \(String(decoding: body.prefix(300), as: UTF8.self))")
        return
      }
      if (try? DeviceInput.device(from: body, teams: Self.registry, at: Self.now)) != nil { accepted += 1 }
    }
    #expect(accepted > 1_000 && accepted < 19_000, "mutations both kept and broke bodies: \(accepted) taken")
  }
}
