import StatlineCore

/// The targets this process committed: the state it wrote and the tag `statline_commit` stored
/// with it (migration 5), and those it has claimed back as it left them (the stored tag is still
/// its own, so no other statement has written the state since).
///
/// Such a target's state is taken from here instead of decoding its JSON, and the records of
/// its page are most likely as this process last wrote them, so its next commit is worked out
/// against what this process remembers; `statline_commit` checks that anyway.
struct CommittedTargets {
  private var written: [String: (tag: Int64, state: TargetState)] = [:]
  private var untouched: Set<String> = []

  /// A fresh tag for a commit's state (never 0, so a zero read from anywhere never matches).
  static func newTag() -> Int64 {
    var tag: Int64 = 0
    while tag == 0 { tag = Int64.random(in: .min ... .max) }
    return tag
  }

  /// The state this process committed for `target`, when `tag` (as a claim read it) is the one
  /// it wrote; marks the target untouched then, and not untouched otherwise.
  mutating func claimed(_ target: String, tag: Int64?) -> TargetState? {
    guard let tag, let mine = written[target], mine.tag == tag else {
      untouched.remove(target)
      return nil
    }
    untouched.insert(target)
    return mine.state
  }

  /// Whether `target` is marked as claimed back untouched (without taking the mark).
  func isUntouched(_ target: String) -> Bool { untouched.contains(target) }

  /// Whether `target` was claimed back untouched (asked once per claim).
  mutating func takeUntouched(_ target: String) -> Bool { untouched.remove(target) != nil }

  /// `state` was committed for its target under `tag`; nil: the commit wrote nothing, or an
  /// unknown state (forget it).
  mutating func committed(_ target: String, state: TargetState?, tag: Int64) {
    written[target] = state.map { (tag, $0) }
  }
}
