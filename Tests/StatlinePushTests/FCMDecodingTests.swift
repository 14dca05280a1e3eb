import Foundation
import Testing

@testable import StatlinePush

/// FCM's answers and service-account files, mutated deterministically (the fuzz targets
/// `fcm-answer` and `fcm-service-account` run the same checks on libFuzzer's inputs): whatever
/// the bytes, an answer comes to the action its status says, and a file is read whole or
/// refused without quoting its key.
@Suite struct FCMDecodingTests {
  /// A small deterministic generator (xorshift), so a failure repeats.
  struct Mutator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
    mutating func mutate(_ seed: [UInt8]) -> [UInt8] {
      var bytes = seed
      for _ in 0..<(1 + Int(next() % 6)) {
        let at = bytes.isEmpty ? 0 : Int(next() % UInt64(bytes.count))
        switch next() % 4 {
        case 0 where !bytes.isEmpty: bytes[at] = UInt8(truncatingIfNeeded: next())
        case 1 where !bytes.isEmpty: bytes.remove(at: at)
        case 2: bytes.insert(UInt8(truncatingIfNeeded: next()), at: at)
        default: bytes += bytes.prefix(Int(next() % 16))
        }
      }
      return bytes
    }
  }

  @Test func anyAnswerComesToTheActionItsStatusSays() throws {
    let error = FCMAnswerTests.body(429, "QUOTA_EXCEEDED", field: "message.token")
    let seeds: [[UInt8]] = [
      [50] + Array("30".utf8) + [0] + Array(error), [162] + [0] + Array(error), [0], [50, 0],
      [150] + Array("Wed, 21 Oct 2015 07:28:00 GMT".utf8) + [0] + Array(#"{"name":"projects/p/messages/1"}"#.utf8),
    ]
    var mutator = Mutator(state: 0x9E37_79B9_7F4A_7C15)
    for round in 0..<20_000 {
      let input = Data(mutator.mutate(seeds[round % seeds.count]))
      if let broken = FCMInvariants.brokenAnswer(input) {
        Issue.record("round \(round): \(broken) for \(Array(input.prefix(80)))")
        return
      }
    }
  }

  @Test func anyServiceAccountFileIsReadWholeOrRefusedWithoutItsKey() throws {
    let seed = [UInt8](FCMAnswerTests.account.json)
    var mutator = Mutator(state: 0xD1B5_4A32_D192_ED03)
    var taken = 0
    for round in 0..<400 {
      let input = Data(mutator.mutate(seed))
      if FCMInvariants.brokenServiceAccount(input) == nil, (try? FCMServiceAccount(json: input)) != nil { taken += 1 }
      if let broken = FCMInvariants.brokenServiceAccount(input) {
        Issue.record("round \(round): \(broken)")
        return
      }
    }
    #expect(FCMInvariants.brokenServiceAccount(Data(seed)) == nil)
    #expect(taken < 400, "most mutations are refused")
  }
}
