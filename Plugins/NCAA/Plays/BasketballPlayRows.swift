import StatlineCore

/// NCAA basketball play rows → plays. stats.ncaa.org's texts are `Name, tags; made` /
/// `…; missed`, ncaa.com's `Name makes three point jump shot (Other assists)`: a row whose text
/// ends in `made`, or says `makes`, is a `score` play (`details.points`: 3 for a `3pt`, 1 for a
/// `freethrow`, else 2), its scorer the name before the comma; timeouts, turnovers and period
/// starts and ends are typed, the rest `other`, the text kept. The running score is kept on the
/// score plays only: the page prints one on every row, but rows of one second come in no set
/// order, and the score printed on a substitution can step back.
enum BasketballPlayRows {
  static func plays(_ rows: consuming [PlayRow], gameId: String) -> [Play] {
    var plays: [Play] = []
    plays.reserveCapacity(rows.count)
    let blank = Play(gameId: gameId, sequence: 0, type: .other, text: "")
    for index in rows.indices where rows[index].listed || !rows[index].text.isEmpty {
      // Filled in place from one blank play, the row's text moved into it: `Play.init` built each
      // play aside and copied it out, and the row was copied in (every string of both retained
      // and released once more: a fifth of the trimmed ncaa.com answer's normalizing).
      plays.append(blank)
      fill(&plays[plays.count - 1], from: &rows[index], sequence: plays.count)
    }
    return plays
  }

  /// `play` filled from `row`, whose text is moved into it (the row is not read again). The
  /// row's words are read once, on the text's bytes, in any letter case, and the actor cut at the
  /// text's first commas (`Words`): a lower-cased copy, a list of its parts and a string made per
  /// test, per row, were a third of reading a stats.ncaa.org basketball play-by-play.
  static func fill(_ play: inout Play, from row: inout PlayRow, sequence: Int) {
    let words = row.text.withUTF8 { Words($0) }
    var type = PlayType.other
    let (name, rest) = words.actor
    if words.made {
      type = .score
      play.details["points"] = words.threePointer ? "3" : words.freeThrow ? "1" : "2"
    } else if let points = words.makesPoints {
      // ncaa.com: "Ryan Rapp makes three point jump shot (Isaiah Moses assists)".
      type = .score
      play.details["points"] = points
      if rest.hasSuffix(" assists)"), let (_, inside) = FastText.split(rest, at: " (") {
        play.assist = String(inside.dropLast(" assists)".count))
      }
    } else if let other = words.other {
      type = other
    }
    if row.side != nil && !name.isEmpty && !FastText.hasPrefix(name, caseless: "team") {
      play.player = name
      play.details["action"] = rest
    }
    play.sequence = sequence
    play.period = row.period
    play.periodLabel = row.periodLabel
    play.clock = clock(row.clock)
    play.side = row.side
    play.type = type
    swap(&play.text, &row.text)
    if type == .score {
      play.awayScore = row.away
      play.homeScore = row.home
    }
  }

  /// What a row's text says, read off its bytes once.
  struct Words {
    /// `…made` (stats.ncaa.org), and the kind of shot its words name.
    var made = false
    var threePointer = false
    var freeThrow = false
    /// `X makes …` (ncaa.com): the points its shot is worth.
    var makesPoints: String?
    /// A timeout, a turnover, a period's start or end.
    var other: PlayType?
    /// Who acted, and what they did: the text around " makes ", else `BasketballPlayRows.actor`.
    var actor: (name: String, rest: String)

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
      if FastText.hasSuffix(bytes, caseless: "made") {
        made = true
        threePointer = FastText.contains(bytes, caseless: "3pt")
        freeThrow = !threePointer && FastText.contains(bytes, caseless: "freethrow")
      } else if let at = Self.find(" makes ", in: bytes) {
        let shot = UnsafeBufferPointer(rebasing: bytes[(at + 7)...])
        let points =
          FastText.hasPrefix(shot, caseless: "three point")
          ? "3" : FastText.hasPrefix(shot, caseless: "free throw") ? "1" : "2"
        makesPoints = points
        actor = (Self.string(bytes[..<at]), Self.string(shot[...]))
        return
      } else if FastText.contains(bytes, caseless: "timeout") {
        other = .timeout
      } else if FastText.contains(bytes, caseless: "turnover") {
        other = .turnover
      } else if FastText.hasPrefix(bytes, caseless: "period start")
        || FastText.hasPrefix(bytes, caseless: "jumpball startperiod")
      {
        other = .periodStart
      } else if FastText.hasPrefix(bytes, caseless: "period end") || FastText.hasPrefix(bytes, caseless: "game end") {
        other = .periodEnd
      }
      actor = BasketballPlayRows.actor(bytes)
    }

    /// The first offset of `needle` (exact bytes).
    static func find(_ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
      ByteSearch.offset(
        of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
        in: UnsafeRawBufferPointer(bytes))
    }

    static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String { String(decoding: bytes, as: UTF8.self) }
  }

  /// Who acted and what they did: `JT Toppin, 2pt jumpshot made` (the current pages) or
  /// `Ike, Graham, 2pt jumpshot made` (last name first, older pages) → the name as "First Last".
  static func actor(_ text: String) -> (name: String, rest: String) {
    var text = text
    return text.withUTF8 { actor($0) }
  }

  /// The same on a text's bytes, cut at its first two ", ".
  static func actor(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: String, rest: String) {
    guard let first = Words.find(", ", in: bytes) else { return ("", Words.string(bytes[...])) }
    let afterFirst = UnsafeBufferPointer(rebasing: bytes[(first + 2)...])
    if let second = Words.find(", ", in: afterFirst) {
      let given = Words.string(afterFirst[..<second])
      if given.first?.isUppercase == true, !given.utf8.contains(0x20) {
        return (
          PersonName.normalized("\(Words.string(bytes[..<first])), \(given)"),
          Words.string(bytes[(first + 2 + second + 2)...])
        )
      }
    }
    return (Words.string(bytes[..<first]), Words.string(afterFirst[...]))
  }

  /// `19:41:00` (minutes, seconds, hundredths) or `19:41` → `19:41`.
  static func clock(_ text: String?) -> String? {
    guard let text else { return nil }
    // The answer's usual `M:SS:hh` / `MM:SS:hh`, cut at its last colon by bytes (every play has
    // one); anything else as before.
    var copy = text
    let cut = copy.withUTF8 { bytes -> String? in
      let count = bytes.count
      guard count == 7 || count == 8, bytes[count - 6] == UInt8(ascii: ":"), bytes[count - 3] == UInt8(ascii: ":")
      else { return nil }
      for offset in 0..<count where bytes[offset] == UInt8(ascii: ":") && offset != count - 6 && offset != count - 3 {
        return nil
      }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<(count - 3)]), as: UTF8.self)
    }
    if let cut { return GameText.clock(cut) }
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
