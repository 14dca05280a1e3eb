import Foundation
import StatlineCore
import Testing

struct FastTextTests {
  /// `trimmedWhitespace` is Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` on
  /// text of every kind of end: ASCII and Unicode spaces, newlines, letters of several scripts.
  @Test func trimmedWhitespaceIsFoundationsTrim() {
    let pieces = [
      " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2003}", "\u{3000}", "\u{2028}", "\u{85}", "a", "Z",
      "é", "ß", "名", "(1-3)", "Queens (NC)", "-", "0", "👍🏽", "e\u{301}",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
        .joined()
      #expect(
        FastText.trimmedWhitespace(text) == text.trimmingCharacters(in: .whitespacesAndNewlines),
        "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
      let sub = text.dropFirst()
      #expect(FastText.trimmedWhitespace(sub) == sub.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    #expect(FastText.trimmedWhitespace("  Queens (NC) ") == "Queens (NC)")
    #expect(FastText.trimmedWhitespace(" \u{A0}") == "")
  }

  /// A set's bytes off both ends, as `trimmingCharacters(in:)` takes that set's characters.
  @Test func trimmedOfASetIsFoundationsTrim() {
    let set = CharacterSet(charactersIn: "() ")
    for text in ["(19-11)", " (3-0) ", "()", "", "x", "(é)", "((a b))", "a)", "(a", "  ", "(2-1, 1-0 Conf)"] {
      #expect(FastText.trimmed(text, of: "() ") == text.trimmingCharacters(in: set), "\(text)")
    }
  }

  /// Parts joined in one write are the parts concatenated: empty parts, inline and heap strings,
  /// multi-byte text and a bridged `NSString` (which lends no contiguous bytes).
  @Test func joinedIsTheConcatenation() {
    let bridged = NSString(string: "ünïcode bridged from Foundation, long enough not to be inline") as String
    let pieces = ["", "a", "ncaa-gql-pbp", " ", "é名👍🏽", String(repeating: "x", count: 40), bridged, "%7B%22id%22"]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let parts = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
      #expect(FastText.joined(parts) == parts.joined(), "\(parts)")
    }
    #expect(FastText.joined("ncaa-gql-pbp", " ", "https://x/") == "ncaa-gql-pbp https://x/")
    #expect(FastText.joined() == "")
  }
}

/// A repeat is told as a set of every id seen would tell it, below and past the 32 ids that
/// are compared one by one: 2,000 random runs of up to 80 ids from 60.
struct RepeatedIdsTests {
  @Test func aRepeatIsToldAsASetTellsIt() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      var seen = RepeatedIds()
      var set = Set<String>()
      var earlier: [String] = []
      for _ in 0..<Int.random(in: 0...80, using: &generator) {
        let id = "ncaa:\(Int.random(in: 0..<60, using: &generator))"
        let repeated = seen.contains(id, among: earlier, { $0 })
        #expect(repeated == !set.insert(id).inserted, "\(earlier) then \(id)")
        if !repeated { earlier.append(id) }
      }
    }
  }
}
