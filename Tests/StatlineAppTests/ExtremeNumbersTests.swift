import Foundation
import StatlineApp
import StatlineCore
import StatlineTesting
import Testing

/// A page is read or refused, never stops the process: every fixture page of every parser (and
/// every real page, where they are available), with its numbers made extreme (±9×10¹⁸, 2⁶²,
/// negated, twelve and seventeen digits) runs through parse → normalize → validate. An
/// arithmetic overflow on a number a page prints would trap and end the whole scrape job, so
/// this test fails by crashing. (Such numbers stopped the process in fifteen places before
/// `GameText.int` read no number past ±999,999,999 and validation added up with `checkedSum`.)
@Suite struct ExtremeNumbersTests {
  /// The page's numbers (digit runs not inside a word or a decimal) replaced by `replace`.
  static func withNumbers(_ body: Data, _ replace: (Int, [UInt8]) -> [UInt8]) -> Data {
    let bytes = [UInt8](body)
    func isWordByte(_ byte: UInt8) -> Bool {
      (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
        || byte == UInt8(ascii: ".")
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    var index = 0
    var count = 0
    while index < bytes.count {
      let start = index
      guard bytes[index] &- UInt8(ascii: "0") < 10, start == 0 || !isWordByte(bytes[start - 1]) else {
        out.append(bytes[index])
        index += 1
        continue
      }
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      let digits = Array(bytes[start..<index])
      if index < bytes.count, isWordByte(bytes[index]) {
        out += digits
      } else {
        out += replace(count, digits)
        count += 1
      }
    }
    return Data(out)
  }

  static let variants: [(String, @Sendable (Int, [UInt8]) -> [UInt8])] = [
    ("huge", { _, _ in Array("9000000000000000000".utf8) }),
    ("negative huge", { _, _ in Array("-9000000000000000000".utf8) }),
    (
      "mixed",
      { index, _ in
        Array(["9000000000000000000", "-9000000000000000000", "0", "-1", "4611686018427387904"][index % 5].utf8)
      }
    ),
    ("every third", { index, digits in index % 3 == 1 ? Array("-4611686018427387905".utf8) : digits }),
    ("negated", { _, digits in [UInt8(ascii: "-")] + digits }),
    ("long", { index, digits in index % 2 == 0 ? Array("999999999999".utf8) : Array("99999999999999999".utf8) }),
  ]

  @Test func everyPageWithExtremeNumbersIsReadOrRefused() throws {
    let suite = GoldenCases(BuiltinPlugins.all).suite
    var (runs, refused) = (0, 0)
    for fixture in suite.cases() {
      guard let page = suite.page(fixture), let entry = suite.registry.parser(id: fixture.parser) else { continue }
      for (_, replace) in Self.variants {
        var edited = page
        edited.body = Self.withNumbers(page.body, replace)
        runs += 1
        do { _ = try PagePipeline.run(edited, with: entry) } catch { refused += 1 }
      }
    }
    #expect(runs >= 500, "every case's page ran: \(runs)")
    #expect(refused > 0 && refused < runs, "\(refused) of \(runs) refused")
  }
}
