import StatlineCore

/// Translates CSS selectors to XPath 1.0, so that one engine (libxml2's XPath) runs both.
///
/// Supported: type and `*`, `.class`, `#id`, attributes `[a] [a=v] [a~=v] [a|=v] [a^=v]
/// [a$=v] [a*=v]`, the combinators descendant, `>`, `+` and `~`, `:first-child`,
/// `:last-child`, `:only-child`, `:empty`, `:nth-child(an+b | odd | even)`,
/// `:nth-last-child(...)`, `:not(compound)`, `:contains(text)` (jQuery's, on normalized text),
/// and comma groups. The result selects descendants of the context node.
public enum CSSSelector {
  public static func xpath(for selector: String, lowercaseTypes: Bool = true) throws(StatlineError)
    -> String
  {
    var parser = CSSParser(Array(selector.unicodeScalars), source: selector, lowercaseTypes: lowercaseTypes)
    try parser.requireXMLCharacters()
    return try parser.parseGroup()
  }
}

/// A hand-written recursive-descent reader of the selector grammar that emits XPath directly.
struct CSSParser {
  private let scalars: [Unicode.Scalar]
  private let source: String
  private let lowercaseTypes: Bool
  private var index = 0

  init(_ scalars: [Unicode.Scalar], source: String, lowercaseTypes: Bool) {
    self.scalars = scalars
    self.source = source
    self.lowercaseTypes = lowercaseTypes
  }

  mutating func parseGroup() throws(StatlineError) -> String {
    var paths: [String] = []
    repeat {
      skipSpace()
      paths.append(try parseComplex())
      skipSpace()
    } while consume(",")
    guard index == scalars.count else { throw failure("unexpected '\(scalars[index])'") }
    return paths.joined(separator: " | ")
  }

  /// compound (combinator compound)*
  private mutating func parseComplex() throws(StatlineError) -> String {
    var path = "descendant::" + (try parseCompound())
    while true {
      let hadSpace = skipSpace()
      guard let next = peek(), next != ",", next != ")" else { break }
      if consume(">") {
        skipSpace()
        path += "/" + (try parseCompound())
      } else if consume("+") {
        skipSpace()
        let (name, predicates) = try parseCompoundParts()
        path += "/following-sibling::*[1]/self::" + name + predicates
      } else if consume("~") {
        skipSpace()
        path += "/following-sibling::" + (try parseCompound())
      } else if hadSpace {
        path += "/descendant::" + (try parseCompound())
      } else {
        throw failure("unexpected '\(next)'")
      }
    }
    return path
  }

  private mutating func parseCompound() throws(StatlineError) -> String {
    let (name, predicates) = try parseCompoundParts()
    return name + predicates
  }

  /// The element test and its predicates (`[...]` each).
  private mutating func parseCompoundParts() throws(StatlineError) -> (String, String) {
    let conditions = try parseConditions()
    return (conditions.name, conditions.predicates.map { "[\($0)]" }.joined())
  }

  private mutating func parseConditions() throws(StatlineError) -> (name: String, predicates: [String]) {
    var name = "*"
    var predicates: [String] = []
    let start = index
    if consume("*") {
      name = "*"
    } else if let first = peek(), isNameStart(first) {
      let identifier = readIdentifier()
      name = lowercaseTypes ? identifier.lowercased() : identifier
      if !Self.isPlainName(name) {
        // An escaped or non-ASCII name is matched as a string, never spliced into the XPath.
        predicates.append("local-name() = \(literal(name))")
        name = "*"
      }
    }
    while peek() != nil {
      if consume("#") {
        predicates.append("@id = \(literal(try requireIdentifier("an id after '#'")))")
      } else if consume(".") {
        let name = try requireIdentifier("a class name after '.'")
        predicates.append("contains(concat(' ', normalize-space(@class), ' '), \(literal(" \(name) ")))")
      } else if consume("[") {
        predicates.append(try parseAttribute())
      } else if consume(":") {
        predicates.append(try parsePseudo())
      } else {
        break
      }
    }
    guard index > start else { throw failure("expected a selector") }
    return (name, predicates)
  }

  private mutating func parseAttribute() throws(StatlineError) -> String {
    skipSpace()
    let read = try requireIdentifier("an attribute name")
    let name = lowercaseTypes ? read.lowercased() : read
    let attribute = Self.isPlainName(name) ? "@" + name : "@*[local-name() = \(literal(name))]"
    skipSpace()
    if consume("]") { return attribute }
    var op = ""
    for candidate in ["~=", "|=", "^=", "$=", "*=", "="] where consume(candidate) {
      op = candidate
      break
    }
    guard !op.isEmpty else { throw failure("expected an attribute operator or ']'") }
    skipSpace()
    let value = try readValue()
    skipSpace()
    guard consume("]") else { throw failure("expected ']'") }
    let v = literal(value)
    switch op {
    case "=": return "\(attribute) = \(v)"
    case "~=":
      return value.isEmpty || value.contains(" ")
        ? "false()" : "contains(concat(' ', normalize-space(\(attribute)), ' '), \(literal(" \(value) ")))"
    case "|=": return "(\(attribute) = \(v) or starts-with(\(attribute), \(literal(value + "-"))))"
    case "^=": return value.isEmpty ? "false()" : "starts-with(\(attribute), \(v))"
    case "$=":
      return value.isEmpty
        ? "false()"
        : "substring(\(attribute), string-length(\(attribute)) - \(value.count - 1)) = \(v)"
    default: return value.isEmpty ? "false()" : "contains(\(attribute), \(v))"
    }
  }

  private mutating func parsePseudo() throws(StatlineError) -> String {
    let name = try requireIdentifier("a pseudo-class name after ':'").lowercased()
    let position = "count(preceding-sibling::*)"
    let fromEnd = "count(following-sibling::*)"
    // `[1]` lets libxml2 stop at the first sibling; without it, it collects every sibling of
    // every candidate (quadratic on long tables: 3.4 s instead of 6 ms for 20,000 rows).
    switch name {
    case "first-child": return "not(preceding-sibling::*[1])"
    case "last-child": return "not(following-sibling::*[1])"
    case "only-child": return "not(preceding-sibling::*[1]) and not(following-sibling::*[1])"
    case "empty": return "not(node())"
    case "nth-child", "nth-last-child":
      let (a, b) = try parseNth()
      return nthPredicate(a: a, b: b, index: "(\(name == "nth-child" ? position : fromEnd) + 1)")
    case "not":
      guard consume("(") else { throw failure("expected '(' after :not") }
      skipSpace()
      let inner = try parseConditions()
      skipSpace()
      guard consume(")") else { throw failure("expected ')' to close :not(") }
      var parts = inner.predicates
      if inner.name != "*" { parts.insert("self::\(inner.name)", at: 0) }
      return parts.isEmpty ? "false()" : "not(\(parts.map { "(\($0))" }.joined(separator: " and ")))"
    case "contains":
      guard consume("(") else { throw failure("expected '(' after :contains") }
      skipSpace()
      let text = try readValue()
      skipSpace()
      guard consume(")") else { throw failure("expected ')' to close :contains(") }
      return "contains(normalize-space(.), \(literal(text)))"
    default:
      throw failure("unsupported pseudo-class ':\(name)'")
    }
  }

  /// `an+b`, `odd`, `even`, `n`, `-n+3`, `5`.
  private mutating func parseNth() throws(StatlineError) -> (Int, Int) {
    guard consume("(") else { throw failure("expected '('") }
    var text = ""
    while let next = peek(), next != ")" {
      text.unicodeScalars.append(next)
      index += 1
    }
    guard consume(")") else { throw failure("expected ')'") }
    let formula = text.filter { !$0.isWhitespace }.lowercased()
    if formula == "odd" { return (2, 1) }
    if formula == "even" { return (2, 0) }
    if let b = Int(formula) { return (0, b) }
    guard let n = formula.firstIndex(of: "n") else { throw failure("invalid :nth-child formula '\(text)'") }
    let aText = String(formula[..<n])
    let bText = String(formula[formula.index(after: n)...])
    let a: Int?
    switch aText {
    case "", "+": a = 1
    case "-": a = -1
    default: a = Int(aText)
    }
    let b: Int? = bText.isEmpty ? 0 : Int(bText.hasPrefix("+") ? String(bText.dropFirst()) : bText)
    guard let a, let b else { throw failure("invalid :nth-child formula '\(text)'") }
    return (a, b)
  }

  private func nthPredicate(a: Int, b: Int, index p: String) -> String {
    if a == 0 { return "\(p) = \(b)" }
    if a > 0 { return "\(p) >= \(b) and (\(p) - \(b)) mod \(a) = 0" }
    return "\(p) <= \(b) and (\(b) - \(p)) mod \(-a) = 0"
  }

  // MARK: Lexing

  @discardableResult
  private mutating func skipSpace() -> Bool {
    let start = index
    while let next = peek(), next == " " || next == "\t" || next == "\n" || next == "\r" { index += 1 }
    return index > start
  }

  private func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private mutating func consume(_ text: String) -> Bool {
    let wanted = Array(text.unicodeScalars)
    guard index + wanted.count <= scalars.count, Array(scalars[index..<index + wanted.count]) == wanted
    else { return false }
    index += wanted.count
    return true
  }

  /// A name XPath takes as it is: ASCII letters, digits, `_`, `-` and `.`, not starting with a
  /// digit, `-` or `.` (libxml2 reads XML 1.0's older name rules; anything else goes in quotes).
  static func isPlainName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic else {
      return false
    }
    return name.unicodeScalars.allSatisfy {
      $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
    }
  }

  private func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || scalar == "-" || scalar.properties.isAlphabetic || scalar.value > 0x7F
  }

  private func isNameChar(_ scalar: Unicode.Scalar) -> Bool {
    isNameStart(scalar) || ("0"..."9").contains(scalar)
  }

  private mutating func readIdentifier() -> String {
    var result = ""
    while let next = peek() {
      if next == "\\", index + 1 < scalars.count {
        result.unicodeScalars.append(scalars[index + 1])
        index += 2
      } else if isNameChar(next) {
        result.unicodeScalars.append(next)
        index += 1
      } else {
        break
      }
    }
    return result
  }

  private mutating func requireIdentifier(_ what: String) throws(StatlineError) -> String {
    let identifier = readIdentifier()
    guard !identifier.isEmpty else { throw failure("expected \(what)") }
    return identifier
  }

  /// A quoted string or a bare identifier.
  private mutating func readValue() throws(StatlineError) -> String {
    guard let quote = peek(), quote == "\"" || quote == "'" else {
      return try requireIdentifier("a value")
    }
    index += 1
    var result = ""
    while let next = peek(), next != quote {
      if next == "\\", index + 1 < scalars.count {
        result.unicodeScalars.append(scalars[index + 1])
        index += 2
      } else {
        result.unicodeScalars.append(next)
        index += 1
      }
    }
    guard consume(String(quote)) else { throw failure("unterminated string") }
    return result
  }

  /// An XPath string literal for any text (XPath 1.0 has no escapes: use concat for mixed quotes).
  /// Quotes are looked for as bytes, not as Characters: a quote followed by a combining mark is
  /// one Character that is not "'", yet libxml2 reads its first byte as the end of the string
  /// (the CSS fuzz target found that one).
  private func literal(_ text: String) -> String {
    let scalars = text.unicodeScalars
    if !scalars.contains("'") { return "'\(text)'" }
    if !scalars.contains("\"") { return "\"\(text)\"" }
    let parts = scalars.split(separator: "'", omittingEmptySubsequences: false).map {
      "'\(String(String.UnicodeScalarView($0)))'"
    }
    return "concat(" + parts.joined(separator: ", \"'\", ") + ")"
  }

  /// A control character (other than tab and line breaks) cannot be in an XPath string, nor in
  /// an HTML name or value it could match: refused up front, with its position.
  func requireXMLCharacters() throws(StatlineError) {
    for (offset, scalar) in scalars.enumerated() {
      let value = scalar.value
      let allowed =
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
        || (0xE000...0xFFFD).contains(value) || value >= 0x10000
      guard allowed else {
        throw StatlineError(
          .configuration,
          "invalid CSS selector '\(source.debugDescription)': control character U+\(String(value, radix: 16, uppercase: true))",
          context: "offset \(offset)", hint: "remove the character from the selector")
      }
    }
  }

  private func failure(_ message: String) -> StatlineError {
    StatlineError(
      .configuration, "invalid CSS selector '\(source)': \(message)", context: "offset \(index)",
      hint: "see the README for the supported CSS subset, or use an XPath expression")
  }
}
