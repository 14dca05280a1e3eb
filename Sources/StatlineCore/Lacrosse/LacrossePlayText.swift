import Foundation

/// The lacrosse play grammar (STRUCTURE.md §1), shared by StatCrew XML, NCAA GraphQL and
/// stats.ncaa.org: a play's text → its type, player, assist and details. Names come out
/// "First Last". Text the grammar does not know keeps its action's type with no player, never
/// a guess.
public struct LacrossePlayText: Equatable, Sendable {
  public var type: PlayType
  public var player: String?
  public var assist: String?
  public var details: [String: String] = [:]
  /// The two players of a faceoff; the normalizer picks the winner from the rosters.
  public var contenders: [String] = []

  public init(
    type: PlayType, player: String? = nil, assist: String? = nil, details: [String: String] = [:],
    contenders: [String] = []
  ) {
    self.type = type
    self.player = player
    self.assist = assist
    self.details = details
    self.contenders = contenders
  }

  private static func regex(_ pattern: String) -> NSRegularExpression {
    try! NSRegularExpression(pattern: pattern)
  }

  // `\x01` stands for the team token, marked before matching (team tokens contain spaces).
  private static let goal = regex(
    #"^GOAL by \x01 (?<name>[^(]+?)(?: \((?<note>[^)]*)\))?(?:, Assist by (?<assist>.+?))?(?:, goal number \d+ for season)?\.?$"#
  )
  private static let penalty = regex(
    #"^Penalty on \x01 (?<name>.+?) \((?<foul>[^/)]+)/(?<time>\d+:\d\d)\)"#)
  private static let goalie = regex(#"^(?<name>.+?) at goalie for (?<team>.+?)\.?$"#)
  private static let drawControl = regex(#"^Draw control by \x01 (?<name>.+?)\.?$"#)

  /// - Parameters:
  ///   - teams: the team tokens the text may use ("NORTH CA", "IONA"), to split them from names;
  ///     the play's own team first, longer tokens before their prefixes.
  public static func read(action: String, text: String, teams: [String]) -> LacrossePlayText {
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
    func person(_ value: String?) -> String? { value.map(PersonName.normalized) }

    if let quick = quick(text) { return quick }
    if text.hasPrefix("GOAL"), let m = match(goal) {
      var details: [String: String] = [:]
      if let note = m("note") { details["note"] = note }
      return LacrossePlayText(type: .goal, player: person(m("name")), assist: person(m("assist")), details: details)
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
    return LacrossePlayText(type: type(ofAction: action, text: text))
  }

  /// For a faceoff: the contender on the winning team's `roster`, and the other one.
  public func faceoff(winnerFrom roster: Set<String>) -> (winner: String, opponent: String?)? {
    guard type == .faceoff, let winner = contenders.first(where: { roster.contains($0) }) else { return nil }
    return (winner, contenders.first { $0 != winner })
  }

  public static let shotResults = [" WIDE", " HIGH", " BLOCKED", " HIT POST", " HIT CROSSBAR", " LOW", " SHORT"]

  /// The most common grammars, read without regular expressions (shots, ground balls, clears,
  /// turnovers, faceoffs: four plays in five); nil sends the text on to the rarer grammars, and
  /// text none of them reads keeps its action's type with no player.
  public static func quick(_ text: String) -> LacrossePlayText? {
    if let rest = FastText.rest(text, after: "Shot by \u{1} ") {
      if let (name, goalie) = FastText.split(rest, at: ", SAVE ") {
        return LacrossePlayText(
          type: .shot, player: PersonName.normalized(name),
          details: ["result": "saved", "goalie": PersonName.normalized(goalie)])
      }
      for result in shotResults where rest.hasSuffix(result) {
        let name = String(rest.utf8.dropLast(result.utf8.count))!
        let key = result.dropFirst().lowercased().replacingOccurrences(of: "hit ", with: "")
        return LacrossePlayText(type: .shot, player: PersonName.normalized(name), details: ["result": key])
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
      return LacrossePlayText(type: .groundBall, player: PersonName.normalized(name))
    }
    if let result = FastText.rest(text, after: "Clear attempt by \u{1} "), result == "good" || result == "failed" {
      return LacrossePlayText(type: .clear, details: ["result": result])
    }
    if let rest = FastText.rest(text, after: "Turnover by \u{1} ") {
      guard let (name, cause) = FastText.split(rest, at: " (caused by ") else {
        // A cut-off "(caused by" names no one reliably.
        if FastText.offset(of: "(", in: rest) != nil { return nil }
        return LacrossePlayText(type: .turnover, player: PersonName.normalized(rest))
      }
      guard cause.hasSuffix(")") else { return nil }
      return LacrossePlayText(
        type: .turnover, player: PersonName.normalized(name),
        details: ["causedBy": PersonName.normalized(String(cause.dropLast()))])
    }
    if let rest = FastText.rest(text, after: "Faceoff "), let (first, remainder) = FastText.split(rest, at: " vs "),
      let (second, _) = FastText.split(remainder, at: " won by ")
    {
      return LacrossePlayText(
        type: .faceoff, contenders: [PersonName.normalized(first), PersonName.normalized(second)])
    }
    return nil
  }

  /// The text with the first team token after " by " or " on " replaced by `\u{1}`.
  public static func marked(_ text: String, teams: [String]) -> String {
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

  /// The type an action code stands for when the text says nothing more.
  public static func type(ofAction action: String, text: String) -> PlayType {
    switch action.uppercased() {
    case "GOAL": .goal
    case "SHOT": .shot
    case "FACE": .faceoff
    case "GB": .groundBall
    case "TURN": .turnover
    case "PEN": .penalty
    case "TOUT": .timeout
    case "CLEAR": .clear
    case "DC", "DRAW": .drawControl
    case "GOALIE": .goalieChange
    case "END-PRD": .periodEnd
    case "PRD": .periodStart
    default: text.lowercased().contains("timeout") ? .timeout : .other
    }
  }
}
