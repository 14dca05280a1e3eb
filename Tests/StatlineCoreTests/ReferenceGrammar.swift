import Foundation
import StatlineCore

/// The play grammar as it was written with regular expressions and Foundation strings (before
/// the byte reader): the oracle the byte grammar is checked against.
enum ReferenceGrammar {
  private static func regex(_ pattern: String) -> NSRegularExpression {
    try! NSRegularExpression(pattern: pattern)
  }

  // `\x01` stands for the team token, marked before matching (team tokens contain spaces).
  private static let annotation = #"(?: (?:\([^)]*\)|\{[^}]*\}|\[[^\]]*\]))"#
  private static let goal = regex(
    #"^GOAL by \x01 (?<name>[^(\{\[]+?)(?<notes>"# + annotation
      + #"*)(?:, Assist by (?<assist>[^(\{\[]+?)(?<more>"# + annotation
      + #"*))?(?:, goal number \d+ for season)?\.?$"#
  )
  private static let note = regex(#"\((?<a>[^)]*)\)|\{(?<b>[^}]*)\}|\[(?<c>[^\]]*)\]"#)
  /// A goal in its leading form whose rest no rule reads: the scorer, and the rest kept.
  private static let leadingGoal = regex(
    #"^GOAL by \x01 (?<name>.+?)(?<tail>(?: [(\{\[]|, Assist by |, goal number ).*|\.)?$"#)
  private static let penalty = regex(
    #"^Penalty on \x01 (?<name>.+?) \((?<foul>[^/)]+)/(?<time>\d+:\d\d)\)"#)
  private static let goalie = regex(#"^(?<name>.+?) at goalie for (?<team>.+?)\.?$"#)
  private static let drawControl = regex(#"^Draw control by \x01 (?<name>.+?)\.?$"#)

  /// - Parameters:
  ///   - teams: the team tokens the text may use ("NORTH CA", "IONA"), to split them from names;
  ///     the play's own team first, longer tokens before their prefixes.
  static func read(action: String, text: String, teams: [String]) -> LacrossePlayText {
    // Each grammar is tried only on text that starts its way: NSRegularExpression is slow on
    // Linux, and a game page holds hundreds of plays.
    let text = marked(FastText.trimmed(text), teams: teams)
    func match(_ regex: NSRegularExpression) -> ((String) -> String?)? {
      let range = NSRange(text.startIndex..., in: text)
      guard let result = regex.firstMatch(in: text, range: range) else { return nil }
      return { name in
        let group = result.range(withName: name)
        guard group.location != NSNotFound, let swiftRange = Range(group, in: text) else { return nil }
        return String(text[swiftRange])
      }
    }
    func person(_ value: String?) -> String? { value.map(ReferenceGrammar.name) }

    if let quick = quick(text) { return quick }
    if text.hasPrefix("GOAL"), let m = match(goal) {
      let runs = (m("notes") ?? "") + (m("more") ?? "")
      let notes = note.matches(in: runs, range: NSRange(runs.startIndex..., in: runs)).map { result in
        let group = ["a", "b", "c"].map { result.range(withName: $0) }.first { $0.location != NSNotFound }!
        return String(runs[Range(group, in: runs)!])
      }
      return LacrossePlayText(
        type: .goal, player: person(m("name")), assist: person(m("assist")),
        details: LacrossePlayText.annotationDetails(notes))
    }
    if text.hasPrefix("GOAL"), let m = match(leadingGoal) {
      let tail = (m("tail") ?? "").trimmingCharacters(in: .whitespaces)
      return LacrossePlayText(
        type: .goal, player: person(m("name")), details: tail.isEmpty || tail == "." ? [:] : ["unreadTail": tail])
    }
    if text.hasPrefix("Penalty"), let m = match(penalty) {
      let parts = m("time")!.split(separator: ":").compactMap { Int($0) }
      let seconds = parts.count == 2 ? parts[0] * 60 + parts[1] : 0
      return LacrossePlayText(
        type: .penalty, player: person(m("name")), details: ["foul": m("foul")!, "seconds": String(seconds)])
    }
    if text.contains(" at goalie for "), let m = match(goalie) {
      return LacrossePlayText(type: .goalieChange, player: person(m("name")))
    }
    if text.hasPrefix("Draw"), let m = match(drawControl) {
      return LacrossePlayText(type: .drawControl, player: person(m("name")))
    }
    return LacrossePlayText(type: typeOf(action, text))
  }

  static let shotResults = [" WIDE", " HIGH", " BLOCKED", " HIT POST", " HIT CROSSBAR", " LOW", " SHORT"]

  /// The most common grammars, read without regular expressions (shots, ground balls, clears,
  /// turnovers, faceoffs: four plays in five); nil sends the text on to the rarer grammars, and
  /// text none of them reads keeps its action's type with no player.
  static func quick(_ text: String) -> LacrossePlayText? {
    if let rest = FastText.rest(text, after: "Shot by \u{1} ") {
      if let (name, goalie) = FastText.split(rest, at: ", SAVE ") {
        return LacrossePlayText(
          type: .shot, player: ReferenceGrammar.name(name),
          details: ["result": "saved", "goalie": ReferenceGrammar.name(goalie)])
      }
      for result in shotResults where rest.hasSuffix(result) {
        let name = String(rest.utf8.dropLast(result.utf8.count))!
        let key = result.dropFirst().lowercased().replacingOccurrences(of: "hit ", with: "")
        return LacrossePlayText(type: .shot, player: ReferenceGrammar.name(name), details: ["result": key])
      }
      return nil
    }
    // Team plays: the team is credited, no player.
    switch text {
    case "Ground ball pickup by \u{1}.", "Ground ball pickup by \u{1}": return LacrossePlayText(type: .groundBall)
    case "Turnover by \u{1}.", "Turnover by \u{1}": return LacrossePlayText(type: .turnover)
    case "Shot clock violation by \u{1}.", "Shot clock violation by \u{1}":
      return LacrossePlayText(type: .turnover, details: ["violation": "shot clock"])
    default: break
    }
    if text.hasPrefix("End-of-period") || text.hasPrefix("End of ") { return LacrossePlayText(type: .periodEnd) }
    if text.hasPrefix("Start of ") { return LacrossePlayText(type: .periodStart) }
    if let name = FastText.rest(text, after: "Ground ball pickup by \u{1} ") {
      return LacrossePlayText(type: .groundBall, player: ReferenceGrammar.name(name))
    }
    if let result = FastText.rest(text, after: "Clear attempt by \u{1} "), result == "good" || result == "failed" {
      return LacrossePlayText(type: .clear, details: ["result": result])
    }
    if let rest = FastText.rest(text, after: "Turnover by \u{1} ") {
      guard let (name, cause) = FastText.split(rest, at: " (caused by ") else {
        // A cut-off "(caused by" names no one reliably.
        if FastText.offset(of: "(", in: rest) != nil { return nil }
        return LacrossePlayText(type: .turnover, player: ReferenceGrammar.name(rest))
      }
      guard cause.hasSuffix(")") else { return nil }
      return LacrossePlayText(
        type: .turnover, player: ReferenceGrammar.name(name),
        details: ["causedBy": ReferenceGrammar.name(String(cause.dropLast()))])
    }
    if let rest = FastText.rest(text, after: "Faceoff "), let (first, remainder) = FastText.split(rest, at: " vs "),
      let (second, _) = FastText.split(remainder, at: " won by ")
    {
      return LacrossePlayText(
        type: .faceoff, contenders: [ReferenceGrammar.name(first), ReferenceGrammar.name(second)])
    }
    return nil
  }

  /// The text with the first team token after " by " or " on " replaced by `\u{1}`.
  static func marked(_ text: String, teams: [String]) -> String {
    for team in teams where !team.isEmpty {
      for marker in [" by ", " on "] {
        var needle = marker + team + " "
        if FastText.offset(of: needle, in: text) == nil,
          text.hasSuffix(marker + team + ".") || text.hasSuffix(marker + team)
        {
          needle = marker + team
        }
        if let offset = FastText.offset(of: needle, in: text) {
          let utf8 = Array(text.utf8)
          let prefix = utf8[..<offset]
          let suffix = utf8[(offset + needle.utf8.count)...]
          let space = needle.hasSuffix(" ") ? " " : ""
          return String(decoding: prefix, as: UTF8.self) + marker + "\u{1}" + space
            + String(decoding: suffix, as: UTF8.self)
        }
      }
    }
    return text
  }

  static func name(_ raw: String) -> String {
    // Most names need nothing: no comma and no stray spaces (checked on the bytes: this runs for
    // every player and every play of a game).
    var needsWork = false
    var previous: UInt8 = 0x20
    for byte in raw.utf8 {
      if byte == UInt8(ascii: ",") || byte == 0x09 || byte == 0x0A || (byte == 0x20 && previous == 0x20) {
        needsWork = true
        break
      }
      previous = byte
    }
    if !needsWork && previous != 0x20 { return raw }
    let words = raw.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
    let trimmed = words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    guard let comma = trimmed.utf8.firstIndex(of: UInt8(ascii: ",")) else { return trimmed }
    let last = FastText.trimmed(String(trimmed[..<comma]))
    let first = FastText.trimmed(String(trimmed[trimmed.utf8.index(after: comma)...]))
    guard !last.isEmpty, !first.isEmpty else {
      return trimmed.utf8.split(whereSeparator: { $0 == 0x20 || $0 == UInt8(ascii: ",") })
        .map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }
    return "\(first) \(last)"
  }

  /// Not rewritten for the byte reader: the same function serves both.
  static func typeOf(_ action: String, _ text: String) -> PlayType {
    LacrossePlayText.type(ofAction: action, text: text)
  }

  static func clock(_ text: String?) -> String? {
    guard let parts = text.map(FastText.trimmed)?.split(separator: ":"), parts.count == 2,
      let minutes = Int(parts[0]), let seconds = Int(parts[1]), (0..<60).contains(seconds), minutes >= 0
    else { return nil }
    return FastText.twoDigits(minutes) + ":" + FastText.twoDigits(seconds)
  }
}
