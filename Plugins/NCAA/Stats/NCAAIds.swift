import StatlineCore

/// Namespaced ids for the NCAA sites, which number the same game and team differently
/// (STRUCTURE.md §4): stats.ncaa.org contests keep their bare number (`ncaa:6310104`), everything
/// else says which numbering it is.
enum NCAAIds {
  static let source = "ncaa"

  /// A stats.ncaa.org contest (`/contests/{id}/…`).
  static func contest(_ id: String) -> String { "\(source):\(id)" }
  /// A stats.ncaa.org season team (`/teams/{id}`; the number changes every season).
  static func seasonTeam(_ id: String) -> String { "\(source):team-\(id)" }
  /// A legacy stats.ncaa.org organisation (`org_id`, stable across seasons).
  static func org(_ id: String) -> String { "\(source):org-\(id)" }
  /// A legacy stats.ncaa.org game (`/game/index/{id}`).
  static func legacyGame(_ id: String) -> String { "\(source):game-\(id)" }
  /// An ncaa.com contest (GraphQL `contestId`, the number in casablanca's `url`).
  static func comContest(_ id: String) -> String { "\(source):com-\(id)" }
  /// An ncaa.com team (GraphQL `teamId`, five digits).
  static func comTeam(_ id: String) -> String { "\(source):com-team-\(id)" }
  /// A game a schedule lists before it has a contest page: the team, the date and the opponent.
  static func unplayed(team: String, date: String, opponent: String) -> String {
    "\(source):\(team)-\(date.replacingOccurrences(of: "-", with: ""))-\(GameText.slug(opponent))"
  }

  /// The letters after `marker` (`sport_code=` in `…&sport_code=MLA`), or nil.
  static func code(after marker: String, in text: String?) -> String? {
    guard let rest = rest(of: text, after: marker) else { return nil }
    let letters = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
    return letters.isEmpty ? nil : String(letters)
  }

  /// The number after `marker` in `text` (`/teams/` in `/teams/594020`), or nil.
  static func number(after marker: String, in text: String?) -> String? {
    guard let rest = rest(of: text, after: marker) else { return nil }
    let digits = rest.utf8.prefix { $0 >= 0x30 && $0 <= 0x39 }
    return digits.isEmpty ? nil : String(digits)
  }

  /// `text` after the first `marker` (a byte search: this runs for every player row).
  private static func rest(of text: String?, after marker: String) -> Substring? {
    guard let text, let offset = FastText.offset(of: marker, in: text) else { return nil }
    let start = text.utf8.index(text.utf8.startIndex, offsetBy: offset + marker.utf8.count)
    return text[start...]
  }
}
