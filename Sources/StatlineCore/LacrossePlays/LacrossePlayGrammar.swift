import Foundation

/// The grammars of `LacrossePlayText`, read from the marked bytes (STRUCTURE.md §1). Each mirrors
/// a pattern; names are lazy (the shortest that lets the rest of the pattern match).
extension LacrossePlayText {
  static let shotResults: [(suffix: StaticString, result: String)] = [
    (" WIDE", "wide"), (" HIGH", "high"), (" BLOCKED", "blocked"), (" HIT POST", "post"),
    (" HIT CROSSBAR", "crossbar"), (" LOW", "low"), (" SHORT", "short"),
  ]

  /// The most common grammars (shots, ground balls, clears, turnovers, faceoffs: four plays in
  /// five); nil sends the text on to the rarer grammars.
  static func quick(_ text: MarkedPlayText) -> LacrossePlayText? {
    if let rest = text.rest(after: "Shot by \u{1} ") {
      if let save = text.find(", SAVE ", in: rest) {
        return LacrossePlayText(
          type: .shot, player: text.person(rest.lowerBound..<save),
          details: ["result": "saved", "goalie": text.person((save + 7)..<rest.upperBound)])
      }
      for (suffix, result) in shotResults where text.ends(rest, with: suffix) {
        let name = rest.lowerBound..<(rest.upperBound - suffix.utf8CodeUnitCount)
        return LacrossePlayText(type: .shot, player: text.person(name), details: ["result": result])
      }
      return nil
    }
    // Team plays: the team is credited, no player.
    if text.equals("Ground ball pickup by \u{1}.") || text.equals("Ground ball pickup by \u{1}") {
      return LacrossePlayText(type: .groundBall)
    }
    if text.equals("Turnover by \u{1}.") || text.equals("Turnover by \u{1}") {
      return LacrossePlayText(type: .turnover)
    }
    if text.equals("Shot clock violation by \u{1}.") || text.equals("Shot clock violation by \u{1}") {
      return LacrossePlayText(type: .turnover, details: ["violation": "shot clock"])
    }
    if text.starts(with: "End-of-period") || text.starts(with: "End of ") { return LacrossePlayText(type: .periodEnd) }
    if text.starts(with: "Start of ") { return LacrossePlayText(type: .periodStart) }
    if let rest = text.rest(after: "Ground ball pickup by \u{1} ") {
      return LacrossePlayText(type: .groundBall, player: text.person(rest))
    }
    if let rest = text.rest(after: "Clear attempt by \u{1} ") {
      let result = text.string(rest)
      return result == "good" || result == "failed" ? LacrossePlayText(type: .clear, details: ["result": result]) : nil
    }
    if let rest = text.rest(after: "Turnover by \u{1} ") {
      guard let caused = text.find(" (caused by ", in: rest) else {
        // A cut-off "(caused by" names no one reliably.
        if text.find(byte: UInt8(ascii: "("), in: rest) != nil { return nil }
        return LacrossePlayText(type: .turnover, player: text.person(rest))
      }
      let cause = (caused + 12)..<rest.upperBound
      guard text.ends(cause, with: ")") else { return nil }
      return LacrossePlayText(
        type: .turnover, player: text.person(rest.lowerBound..<caused),
        details: ["causedBy": text.person(cause.lowerBound..<(cause.upperBound - 1))])
    }
    if let rest = text.rest(after: "Faceoff "), let versus = text.find(" vs ", in: rest),
      let won = text.find(" won by ", in: (versus + 4)..<rest.upperBound)
    {
      return LacrossePlayText(
        type: .faceoff,
        contenders: [text.person(rest.lowerBound..<versus), text.person((versus + 4)..<won)])
    }
    return nil
  }

  /// `GOAL by \u{1} NAME[ (NOTE)…][, Assist by ASSIST[ (NOTE)…]][, goal number N for season][.]`:
  /// NAME and ASSIST without an opening bracket, any run of annotations in `()`, `{}` or `[]`
  /// ("MAN-UP", "FIRST GOAL", "{free position shot}", ones never seen) after either, in any
  /// order and number. A text in the goal's leading form that goes on otherwise is still a goal
  /// by its scorer (`leadingGoal`): what follows is kept, not fatal.
  static func goal(_ text: MarkedPlayText) -> LacrossePlayText? {
    guard let start = text.after("GOAL by \u{1} ") else { return nil }
    var end = start + 1
    while end <= text.count, !isOpener(text.bytes[end - 1]) {
      if let (notes, assist) = goalTail(text, from: end) {
        return LacrossePlayText(
          type: .goal, player: text.person(start..<end), assist: assist.map(text.person),
          details: annotationDetails(notes.map(text.string)))
      }
      end += 1
    }
    return leadingGoal(text, from: start)
  }

  /// `GOAL by \u{1} NAME` and anything after: NAME ends at the first ` (`, ` {`, ` [`,
  /// `, Assist by `, `, goal number ` or a final period; the rest is `details.unreadTail`, as
  /// printed. A scorer is never guessed from it.
  private static func leadingGoal(_ text: MarkedPlayText, from start: Int) -> LacrossePlayText? {
    var end = start + 1
    while end < text.count {
      if text.bytes[end] == 0x20, end + 1 < text.count, isOpener(text.bytes[end + 1]) { break }
      if text.starts(with: ", Assist by ", at: end) || text.starts(with: ", goal number ", at: end) { break }
      if end == text.count - 1, text.bytes[end] == UInt8(ascii: ".") { break }
      end += 1
    }
    guard end <= text.count, start < end else { return nil }
    let tail = text.string(end..<text.count).trimmingCharacters(in: .whitespaces)
    return LacrossePlayText(
      type: .goal, player: text.person(start..<end),
      details: tail.isEmpty || tail == "." ? [:] : ["unreadTail": tail])
  }

  /// `(`, `{` or `[`: where an annotation opens.
  static func isOpener(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
  }

  /// What may follow a goal's scorer, up to the end of the text.
  private static func goalTail(_ text: MarkedPlayText, from start: Int) -> (notes: [Range<Int>], assist: Range<Int>?)? {
    var notes: [Range<Int>] = []
    guard let index = annotations(text, from: start, into: &notes) else { return nil }
    if text.starts(with: ", Assist by ", at: index) {
      let assist = index + 12
      var end = assist + 1
      while end <= text.count, !isOpener(text.bytes[end - 1]) {
        var all = notes
        if let after = annotations(text, from: end, into: &all), goalEnds(text, at: after) {
          return (all, assist..<end)
        }
        end += 1
      }
      return nil
    }
    return goalEnds(text, at: index) ? (notes, nil) : nil
  }

  /// A run of ` (NOTE)`, ` {NOTE}` or ` [NOTE]` from `start`: the index after it, or nil when
  /// one is never closed.
  private static func annotations(_ text: MarkedPlayText, from start: Int, into notes: inout [Range<Int>]) -> Int? {
    var index = start
    while index + 1 < text.count, text.bytes[index] == 0x20, isOpener(text.bytes[index + 1]) {
      let closer: UInt8 =
        switch text.bytes[index + 1] {
        case UInt8(ascii: "("): UInt8(ascii: ")")
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        default: UInt8(ascii: "]")
        }
      guard let close = text.find(byte: closer, in: (index + 2)..<text.count) else { return nil }
      notes.append((index + 2)..<close)
      index = close + 1
    }
    return index
  }

  /// `[, goal number N for season][.]` and the end of the text.
  private static func goalEnds(_ text: MarkedPlayText, at start: Int) -> Bool {
    var index = start
    if text.starts(with: ", goal number ", at: index) {
      var digit = index + 14
      while text.isDigit(digit) { digit += 1 }
      if digit > index + 14, text.starts(with: " for season", at: digit) { index = digit + 11 }
    }
    if index < text.count, text.bytes[index] == UInt8(ascii: ".") { index += 1 }
    return index == text.count
  }

  /// `Penalty on \u{1} NAME (FOUL/M:SS)`.
  static func penalty(_ text: MarkedPlayText) -> LacrossePlayText? {
    guard let start = text.after("Penalty on \u{1} ") else { return nil }
    var open = start + 1
    while open < text.count {
      defer { open += 1 }
      guard text.starts(with: " (", at: open) else { continue }
      let foul = open + 2
      var slash = foul
      while slash < text.count, text.bytes[slash] != UInt8(ascii: "/"), text.bytes[slash] != UInt8(ascii: ")") {
        slash += 1
      }
      guard slash > foul, slash < text.count, text.bytes[slash] == UInt8(ascii: "/") else { continue }
      var colon = slash + 1
      var minutes = 0
      // At most three digits of minutes: a longer run is not a penalty time (and twenty digits
      // overflowed the seconds, found by the play-grammar fuzz target).
      while text.isDigit(colon), colon - slash <= 3 {
        minutes = minutes * 10 + Int(text.bytes[colon] - 0x30)
        colon += 1
      }
      guard colon > slash + 1, text.starts(with: ":", at: colon), text.isDigit(colon + 1), text.isDigit(colon + 2),
        text.starts(with: ")", at: colon + 3)
      else { continue }
      let seconds = minutes * 60 + Int(text.bytes[colon + 1] - 0x30) * 10 + Int(text.bytes[colon + 2] - 0x30)
      return LacrossePlayText(
        type: .penalty, player: text.person(start..<open),
        details: ["foul": text.string(foul..<slash), "seconds": String(seconds)])
    }
    return nil
  }

  /// `NAME at goalie for TEAM[.]`: the name, when there is one and a team after it.
  static func goalieName(_ text: MarkedPlayText) -> Range<Int>? {
    var from = 0
    while let found = text.find(" at goalie for ", in: from..<text.count) {
      if found >= 1 { return found + 15 < text.count ? 0..<found : nil }
      from = found + 1
    }
    return nil
  }
}
