import StatlineCore

/// NCAA basketball play rows → plays. stats.ncaa.org's texts are `Name, tags; made` /
/// `…; missed`, ncaa.com's `Name makes three point jump shot (Other assists)`: a row whose text
/// ends in `made`, or says `makes`, is a `score` play (`details.points`: 3 for a `3pt`, 1 for a
/// `freethrow`, else 2), its scorer the name before the comma; timeouts, turnovers and period
/// starts and ends are typed, the rest `other`, the text kept. The running score is kept on the
/// score plays only: the page prints one on every row, but rows of one second come in no set
/// order, and the score printed on a substitution can step back.
enum BasketballPlayRows {
  static func plays(_ rows: [PlayRow], gameId: String) -> [Play] {
    rows.filter { $0.listed || !$0.text.isEmpty }.enumerated().map { index, row in
      let text = row.text
      let lowered = text.lowercased()
      var (name, rest) = Self.actor(text)
      var details: [String: String] = [:]
      var type = PlayType.other
      var assist: String?
      if lowered.hasSuffix("made") {
        type = .score
        details["points"] =
          FastText.contains(lowered, "3pt") ? "3" : FastText.contains(lowered, "freethrow") ? "1" : "2"
      } else if let made = FastText.split(text, at: " makes ") {
        // ncaa.com: "Ryan Rapp makes three point jump shot (Isaiah Moses assists)".
        type = .score
        (name, rest) = made
        let shot = rest.lowercased()
        details["points"] = shot.hasPrefix("three point") ? "3" : shot.hasPrefix("free throw") ? "1" : "2"
        if rest.hasSuffix(" assists)"), let (_, inside) = FastText.split(rest, at: " (") {
          assist = String(inside.dropLast(" assists)".count))
        }
      } else if FastText.contains(lowered, "timeout") {
        type = .timeout
      } else if FastText.contains(lowered, "turnover") {
        type = .turnover
      } else if lowered.hasPrefix("period start") || lowered.hasPrefix("jumpball startperiod") {
        type = .periodStart
      } else if lowered.hasPrefix("period end") || lowered.hasPrefix("game end") {
        type = .periodEnd
      }
      let player = row.side != nil && !name.isEmpty && !name.uppercased().hasPrefix("TEAM") ? name : nil
      if player != nil { details["action"] = rest }
      return Play(
        gameId: gameId, sequence: index + 1, period: row.period, periodLabel: row.periodLabel,
        clock: clock(row.clock), side: row.side, type: type, text: text, player: player, assist: assist,
        awayScore: type == .score ? row.away : nil, homeScore: type == .score ? row.home : nil, details: details)
    }
  }

  /// Who acted and what they did: `JT Toppin, 2pt jumpshot made` (the current pages) or
  /// `Ike, Graham, 2pt jumpshot made` (last name first, older pages) → the name as "First Last".
  static func actor(_ text: String) -> (name: String, rest: String) {
    let parts = FastText.components(text, separatedBy: ", ")
    guard parts.count >= 2 else { return ("", text) }
    if parts.count >= 3, parts[1].first?.isUppercase == true, !parts[1].utf8.contains(0x20) {
      return (PersonName.normalized("\(parts[0]), \(parts[1])"), parts.dropFirst(2).joined(separator: ", "))
    }
    return (parts[0], parts.dropFirst().joined(separator: ", "))
  }

  /// `19:41:00` (minutes, seconds, hundredths) or `19:41` → `19:41`.
  static func clock(_ text: String?) -> String? {
    guard let text else { return nil }
    // The answer's usual `M:SS:hh` / `MM:SS:hh`, cut at its last colon by bytes (every play has
    // one); anything else as before.
    let utf8 = text.utf8
    let count = utf8.count
    if count == 7 || count == 8 {
      var colons = 0
      var expected = true
      for (offset, byte) in utf8.enumerated() where byte == UInt8(ascii: ":") {
        colons += 1
        expected = expected && (offset == count - 6 || offset == count - 3)
      }
      if colons == 2 && expected {
        return GameText.clock(String(decoding: utf8.prefix(count - 3), as: UTF8.self))
      }
    }
    let parts = text.split(separator: ":")
    return GameText.clock(parts.count == 3 ? "\(parts[0]):\(parts[1])" : text)
  }

  /// Men's play halves and women's quarters (NCAA rules): the page's own period names say which.
  static func sport(periodLabels: [String]) -> Sport {
    let labels = periodLabels.map { $0.lowercased() }
    if labels.contains(where: { $0.contains("half") }) { return .basketballMen }
    if labels.contains(where: { $0.contains("quarter") }) { return .basketballWomen }
    return .unknown
  }
}
