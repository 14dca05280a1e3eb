import Testing

@testable import StatlineCore

/// The team token is marked where the regular-expression grammar marked it: " by " and " on " are
/// found eight bytes at a time, so every place of a marker within a word, and words full of
/// spaces, must be looked at.
@Suite struct MarkedPlayTextTests {
  static func marked(_ text: String, teams: [String]) -> String {
    var text = text
    return text.withUTF8 { utf8 in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(utf8.count, 1)) { storage in
        MarkedPlayText(utf8, in: storage, teams: teams).text
      }
    }
  }

  @Test func theTokenIsMarkedWhereverTheMarkerSits() {
    let teams = ["NORTH CA", "IONA", "A B"]
    let words = ["a", "b", "by", "on", "IONA", "NORTH", "CA", "A", "B", "x y", "Smith,", "."]
    // Each failing text is named in its expectation.
    var random = SystemRandomNumberGenerator()
    var marked = 0
    for _ in 0..<20_000 {
      let text = (0..<Int.random(in: 1...14, using: &random)).map { _ in words.randomElement(using: &random)! }
        .joined(separator: String(repeating: " ", count: Int.random(in: 1...2, using: &random)))
      let ours = Self.marked(text, teams: teams)
      #expect(ours == ReferenceGrammar.marked(FastText.trimmed(text), teams: teams), "\(text.debugDescription)")
      if ours.utf8.contains(0x01) { marked += 1 }
    }
    // Enough of the texts name a team for the comparison to mean something.
    #expect(marked > 500)
  }
}
