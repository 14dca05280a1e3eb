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

  /// - Parameters:
  ///   - teams: the team tokens the text may use ("NORTH CA", "IONA"), to split them from names;
  ///     the play's own team first, longer tokens before their prefixes.
  public static func read(action: String, text: String, teams: [String]) -> LacrossePlayText {
    // The marked bytes live on the stack for this one reading (an array per play was its one
    // allocation that outlived nothing).
    var text = text
    return text.withUTF8 { read(action: action, utf8: $0, teams: teams) }
  }

  /// The same reading of a text's UTF-8 bytes: a caller that holds the text in place lends its
  /// bytes (`String.withUTF8` on a copy retained and released the text once more per play).
  public static func read(action: String, utf8: UnsafeBufferPointer<UInt8>, teams: [String]) -> LacrossePlayText {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(utf8.count, 1)) { storage in
      read(action: action, marked: MarkedPlayText(utf8, in: storage, teams: teams))
    }
  }

  private static func read(action: String, marked text: MarkedPlayText) -> LacrossePlayText {
    if let quick = quick(text) { return quick }
    if text.starts(with: "GOAL"), let goal = goal(text) { return goal }
    if text.starts(with: "Penalty"), let penalty = penalty(text) { return penalty }
    if let name = goalieName(text) { return LacrossePlayText(type: .goalieChange, player: text.person(name)) }
    if let start = text.after("Draw control by \u{1} "), start < text.count {
      let end = text.count - start >= 2 && text.bytes.last == UInt8(ascii: ".") ? text.count - 1 : text.count
      return LacrossePlayText(type: .drawControl, player: text.person(start..<end))
    }
    return LacrossePlayText(type: type(ofAction: action, text: text.text))
  }

  /// For a faceoff: the contender on the winning team's `roster`, and the other one.
  public func faceoff(winnerFrom roster: Set<String>) -> (winner: String, opponent: String?)? {
    guard type == .faceoff, let winner = contenders.first(where: { roster.contains($0) }) else { return nil }
    return (winner, contenders.first { $0 != winner })
  }

  /// The type an action code stands for when the text says nothing more: the code in any letter
  /// case, else a timeout when the text says "timeout" (ASCII letters, any case).
  public static func type(ofAction action: String, text: String) -> PlayType {
    if let type = actionTypes[action] ?? actionTypes[action.uppercased()] { return type }
    return mentionsTimeout(text) ? .timeout : .other
  }

  static let actionTypes: [String: PlayType] = [
    "GOAL": .goal, "SHOT": .shot, "FACE": .faceoff, "GB": .groundBall, "TURN": .turnover, "PEN": .penalty,
    "TOUT": .timeout, "CLEAR": .clear, "DC": .drawControl, "DRAW": .drawControl, "GOALIE": .goalieChange,
    "END-PRD": .periodEnd, "PRD": .periodStart,
  ]

  /// "timeout" anywhere in `text`, its ASCII letters in any case (no lower-cased copy made).
  static func mentionsTimeout(_ text: String) -> Bool { FastText.contains(text, caseless: "timeout") }
}
