/// The annotations a goal's text carries in `()`, `{}` or `[]` ("MAN-UP", "FIRST GOAL", "EMPTY NET",
/// "GAME-WINNING", "FREE POSITION", "SHORT-HANDED", "UNASSISTED", "FPGOAL", "free position shot",
/// and ones never seen yet) as a play's details.
extension LacrossePlayText {
  /// One key per annotation in camel case (`manUp`, `firstGoal`, `emptyNet`) set to `"true"`, the
  /// key a writer's other spelling stands for too (`FPGOAL`, `{free position shot}` →
  /// `freePosition`), and `note`: the annotations as printed, in page order, joined by ", "
  /// (`"FPGOAL, free position shot"`).
  public static func annotationDetails(_ notes: [String]) -> [String: String] {
    guard !notes.isEmpty else { return [:] }
    var details: [String: String] = [:]
    for note in notes {
      guard let key = annotationKey(note) else { continue }
      details[key] = "true"
      if let same = synonyms[key] { details[same] = "true" }
    }
    details["note"] = notes.joined(separator: ", ")
    return details
  }

  /// "MAN-UP" → `manUp`, "FIRST GOAL" → `firstGoal`: the words (runs of letters and digits),
  /// the first lower-cased, the others capitalized; nil when there are none.
  public static func annotationKey(_ note: String) -> String? {
    let words = note.split { !($0.isLetter || $0.isNumber) }
    guard let first = words.first else { return nil }
    return words.dropFirst().reduce(first.lowercased()) { key, word in
      key + word.prefix(1).uppercased() + word.dropFirst().lowercased()
    }
  }

  /// Other writers' spellings of a known annotation.
  static let synonyms: [String: String] = [
    "fpgoal": "freePosition", "fpg": "freePosition", "freePositionShot": "freePosition",
    "freePositionGoal": "freePosition", "fpShot": "freePosition",
  ]
}
