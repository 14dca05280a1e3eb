import Foundation

/// How a team's printed name is compared (architecture.md#canonical-games): deterministic rules, never a fuzzy
/// match. Case, accents and punctuation do not count (`St. John's` = `ST JOHNS`), `&` is "and",
/// `St.` is Saint when it leads and State when it trails (`St. Joseph's`, `Michigan St.`), a
/// trailing `U.` is University, and a parenthesised qualifier (`(PA)`, `(NY)`) is kept in the
/// full key and dropped in the unqualified one.
public enum TeamName {
  /// The name's key, qualifier included: "St. Joseph's (PA)" → "saint josephs pa".
  public static func key(_ name: String) -> String {
    words(name, qualifier: true).joined(separator: " ")
  }

  /// The key without a parenthesised qualifier: "St. Joseph's (PA)" → "saint josephs"; nil
  /// when the name has none (the full key is then the only one).
  public static func unqualifiedKey(_ name: String) -> String? {
    guard name.contains("(") else { return nil }
    let key = words(name, qualifier: false).joined(separator: " ")
    return key.isEmpty ? nil : key
  }

  /// "Air Force" → "air-force": the form ncaa.com's school slugs take.
  public static func slug(_ name: String) -> String {
    words(name, qualifier: true, expand: false).joined(separator: "-")
  }

  static func words(_ name: String, qualifier: Bool, expand: Bool = true) -> [String] {
    var text = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
    if !qualifier {
      // Drop every "( … )" part.
      var kept = ""
      var depth = 0
      for character in text {
        if character == "(" {
          depth += 1
        } else if character == ")" {
          depth = max(0, depth - 1)
        } else if depth == 0 {
          kept.append(character)
        }
      }
      text = kept
    }
    var cleaned = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "'", "\u{2019}", "\u{2018}", "`", ".": continue
      case "&": cleaned += expand ? " and " : " "
      default:
        cleaned.unicodeScalars.append(
          CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII ? scalar : " ")
      }
    }
    var words = cleaned.split(separator: " ").map(String.init)
    guard expand, !words.isEmpty else { return words }
    if words[0] == "st" { words[0] = "saint" }
    if words.count > 1, words[words.count - 1] == "st" { words[words.count - 1] = "state" }
    if words.count > 1, words[words.count - 1] == "u" { words[words.count - 1] = "university" }
    return words
  }
}
