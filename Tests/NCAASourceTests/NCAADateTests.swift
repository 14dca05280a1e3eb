import Foundation
import StatlineCore
import Testing

@testable import NCAASource

/// The dates and epochs the NCAA feeds give, read by bytes, are what the Foundation readings give.
@Suite struct NCAADateTests {
  @Test func wholeEpochsAreWrittenAsTheFormatStyleWritesThem() {
    var random = SystemRandomNumberGenerator()
    var values = [1, 59, 86_399, 86_400, 951_782_400, 1_740_733_200, 4_102_444_800, 253_402_300_799]
    for _ in 0..<2_000 { values.append(Int.random(in: 1..<253_402_300_800, using: &random)) }
    for seconds in values {
      #expect(
        NCAADate.iso(epoch: String(seconds)) == Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601),
        "\(seconds)")
    }
    #expect(NCAADate.iso(epoch: "0") == nil)
    #expect(NCAADate.iso(epoch: "-5") == nil)
    #expect(NCAADate.iso(epoch: "soon") == nil)
    #expect(NCAADate.iso(epoch: "1740733200.0") == "2025-02-28T09:00:00Z")
  }

  @Test func datesReadAsBeforeInEveryForm() {
    let cases: [(String?, String?)] = [
      ("03/07/2026", "2026-03-07"), ("3/7/26", "2026-03-07"), ("03-07-2026", "2026-03-07"),
      ("2026-03-07", "2026-03-07"),
      (" 03/07/2026 ", "2026-03-07"), ("13/07/2026", nil), ("03/32/2026", nil), ("03//07/2026", "2026-03-07"),
      ("03/07", nil), ("", nil), (nil, nil), ("  ", nil), ("03/07/2026/1", nil), ("0a/07/2026", nil),
    ]
    for (text, expected) in cases { #expect(NCAADate.iso(text) == expected, "\(text ?? "nil")") }
  }

  @Test func periodNamesReadTheSameUpperOrLowerSpacedOrNot() {
    for (text, expected) in [("1st", 1), (" 2nd ", 2), ("ot", 5), ("2OT", 6), ("Halftime", 2), ("Set 3", 3)] {
      #expect(GraphQLContestsNormalizer.period(text, linescores: 0, regulation: 4) == expected, "\(text)")
    }
    #expect(FastText.upperTrimmed(" \tTop 5th\t ") == "TOP 5TH")
    #expect(FastText.upperTrimmed(" fin\u{E9} ") == "FINÉ")
  }
}
