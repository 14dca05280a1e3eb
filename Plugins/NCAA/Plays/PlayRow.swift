import StatlineCore

/// One play as an NCAA page or feed lists it, before the lacrosse grammar reads its text.
struct PlayRow: Sendable, Equatable {
  var period: Int
  /// The period as the page names it ("1st Half", "Overtime(1)"), when it does.
  var periodLabel: String? = nil
  /// `MM:SS` as printed (the period's time remaining), or nil.
  var clock: String?
  /// The team that acted, when the page says.
  var side: Side?
  var text: String
  /// The running score the row prints, when it does (GraphQL gives it on goals only).
  var away: Int? = nil
  var home: Int? = nil
  /// The second event of a row that holds two (a faceoff that goes on with its ground ball).
  var continuesRow = false
  /// The source lists this row as a play of its own (a GraphQL play object), so it is kept
  /// even when its text is empty; an HTML row with no text is layout, and is dropped.
  var listed = false
  /// The row stands for points the line score gives a period whose plays the page does not list
  /// (`FootballDrives.unlistedPeriods`): a score with no play read.
  var fromLineScore = false
}

extension PlayRow {
  /// A row of Time | visitor | Score | home cells: the side that acted is the non-empty one.
  init(period: Int, periodLabel: String? = nil, clock: String?, awayText: String, homeText: String) {
    let side: Side? = !awayText.isEmpty ? .away : !homeText.isEmpty ? .home : nil
    self.init(
      period: period, periodLabel: periodLabel, clock: clock, side: side, text: awayText.isEmpty ? homeText : awayText)
  }

  /// "(08:16) Reichle,Jake rush …" → ("08:16", "Reichle,Jake rush …"): a text that opens with
  /// its clock in brackets (football's); nil for any other.
  static func openingClock(_ text: String) -> (clock: String, rest: String)? {
    guard text.hasPrefix("("), let close = text.firstIndex(of: ")"),
      text.distance(from: text.startIndex, to: close) <= 6
    else { return nil }
    let rest = text[text.index(after: close)...].drop { $0 == " " }
    return (String(text[text.index(after: text.startIndex)..<close]), String(rest))
  }

  /// A score cell, "V-H" or "V - H" → (visitor, home); nil for anything else.
  static func score(_ text: String) -> (away: Int, home: Int)? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let away = GameText.int(String(parts[0])), let home = GameText.int(String(parts[1])) else {
      return nil
    }
    return (away, home)
  }
}

/// NCAA play rows → typed plays, through the shared lacrosse grammar (`LacrossePlayText`).
///
/// The pages name teams by abbreviations that appear nowhere else ("COR", "JHU", "STONY BR"),
/// so the tokens are learned from the plays themselves; faceoff winners are picked with rosters
/// learned the same way. A faceoff row that goes on with its ground ball ("…won by COR,
/// [15:00] Ground ball pickup by COR Cascadden, Jack.") becomes two plays, the second marked
/// `details.sameRow = "true"` (so the page's rows can still be counted). A play the feed
/// lists with an empty text is kept, typed `other` with `details.emptyText = "true"`, so the
/// plays are numbered as the feed numbers them. Goals count the
/// running score; a score the row prints wins, and is kept on every row that prints one, goal
/// or not, so that validation sees a score change on a play that was not read as a goal.
enum PlayRows {
  static func plays(_ rows: consuming [PlayRow], gameId: String) -> [Play] {
    var split: [PlayRow] = []
    split.reserveCapacity(rows.count + rows.count / 8)
    for index in rows.indices {
      // Each row moved out of the list it came in (a blank left behind): copied, its strings were
      // retained here and released with the list, for every play.
      split.append(PlayRow(period: 0, clock: nil, side: nil, text: ""))
      swap(&split[split.count - 1], &rows[index])
      if let (faceoff, follow) = Self.split(split[split.count - 1]) {
        split[split.count - 1] = faceoff
        split.append(follow)
      }
      // A row the page lists with no text is layout, not a play.
      if !split[split.count - 1].listed && split[split.count - 1].text.isEmpty { split.removeLast() }
    }
    let tokens = learnTokens(&split)
    let everyToken = tokens.away + tokens.home.filter { !tokens.away.contains($0) }
    // A side's own tokens first, then the rest (each once: a token tried twice is a search
    // wasted). Per side, not in a dictionary keyed by side: a lookup per play hashed the side.
    func first(_ own: [String]) -> [String] { own + everyToken.filter { !own.contains($0) } }
    let awayTeams = first(tokens.away)
    let homeTeams = first(tokens.home)
    var awayRoster: Set<String> = []
    var homeRoster: Set<String> = []
    // Faceoffs with a side: their winner is picked once both rosters are known.
    var faceoffs: [(index: Int, read: LacrossePlayText)] = []
    var plays: [Play] = []
    plays.reserveCapacity(split.count)
    let blank = Play(gameId: gameId, sequence: 0, type: .other, text: "")
    // Each play made once, as its text is read (no list of reads kept beside the rows, and each
    // row and read copied back out of its list to make the play).
    for index in split.indices {
      let side = split[index].side
      let teams: [String] =
        switch side {
        case .away: awayTeams
        case .home: homeTeams
        case nil: everyToken
        }
      // The text's bytes lent in place (a copy to read them was a retain and a release per play).
      let read = split[index].text.withUTF8 { LacrossePlayText.read(action: "", utf8: $0, teams: teams) }
      if read.type == .faceoff {
        if side != nil { faceoffs.append((index, read)) }
      } else if let side, let player = read.player {
        if side == .away { awayRoster.insert(player) } else { homeRoster.insert(player) }
      }
      // Filled in place from one blank play: `Play.init` builds each play aside and copies it
      // out (every string of it retained and released once more), a tenth of making the plays.
      plays.append(blank)
      plays[index].sequence = index + 1
      plays[index].period = split[index].period
      plays[index].clock = GameText.clock(split[index].clock)
      plays[index].side = side
      plays[index].type = split[index].text.utf8.starts(with: "End of ".utf8) ? .periodEnd : read.type
      plays[index].periodLabel = split[index].periodLabel
      // Moved from its row, which is not read again.
      swap(&plays[index].text, &split[index].text)
      plays[index].player = read.player
      plays[index].assist = read.assist
      plays[index].details = read.details
      plays[index].awayScore = split[index].away
      plays[index].homeScore = split[index].home
      if split[index].continuesRow { plays[index].details["sameRow"] = "true" }
      if plays[index].text.isEmpty { plays[index].details["emptyText"] = "true" }
    }
    for (index, read) in faceoffs {
      guard let (winner, opponent) = read.faceoff(winnerFrom: plays[index].side == .away ? awayRoster : homeRoster)
      else { continue }
      plays[index].player = winner
      if let opponent { plays[index].details["opponent"] = opponent }
    }
    // The running score: a goal's printed score wins; else the goal counts for its side.
    var away = 0
    var home = 0
    for index in plays.indices where plays[index].type == .goal {
      if let printedAway = plays[index].awayScore, let printedHome = plays[index].homeScore {
        (away, home) = (printedAway, printedHome)
      } else if plays[index].side == .away {
        away += 1
      } else if plays[index].side == .home {
        home += 1
      }
      plays[index].awayScore = away
      plays[index].homeScore = home
    }
    return plays
  }

  /// The lacrosse the play texts are written for: draw controls → women's, faceoffs and the rest
  /// of the lacrosse grammar → men's; nil when they are not lacrosse's.
  static func lacrosse(of texts: [String]) -> Sport? {
    if texts.contains(where: { $0.hasPrefix("Draw control") }) { return .lacrosseWomen }
    let lacrosse = ["Faceoff ", "GOAL by ", "Ground ball pickup", "Clear attempt", "Shot by "]
    if texts.contains(where: { text in lacrosse.contains { text.hasPrefix($0) } }) { return .lacrosseMen }
    return nil
  }

  /// Texts of a sport the plugin does not read: refused, naming the sport they read as (`other`,
  /// from `otherSport(of:)`) when they say.
  static func refusal(_ texts: [String], other: String?) -> StatlineError {
    let first = texts.first { !$0.isEmpty }.map { "'\($0.prefix(60))'" } ?? "none"
    let named = other.map { "\($0), not a sport the page's parser reads" } ?? "of no sport the plugin knows"
    return StatlineError(
      .unsupported, "the plays are \(named) (first: \(first))",
      hint: "the NCAA plugin reads lacrosse and basketball play-by-play by their grammars, and every other sport's "
        + "by its words or its target's sport (`sport:` on the target, or replay --sport)")
  }

  /// Words that only another sport's play texts use.
  static let otherSports: [(sport: String, words: [String])] = [
    ("basketball", ["jumpshot", "layup", "free throw", "rebound", "3pt", "2pt", "dunk"]),
    ("baseball or softball", ["struck out", "singled", "doubled", "grounded out", "flied out", "walked"]),
    ("volleyball", ["attack error", "service ace", "kill by", "dig by"]),
    ("soccer", ["corner kick", "offside", "yellow card"]),
    ("field hockey", ["penalty corner", "green card"]),
    ("ice hockey", ["power play goal", "icing", "hooking", "shot on goal by"]),
    ("football", ["touchdown", "rush for", "pass complete", "pass incomplete", "kickoff", "punt "]),
  ]

  /// The sport most of the texts' words belong to, or nil. (Byte search: Foundation's
  /// `contains` made this most of a basketball page's reading time.)
  static func otherSport(of texts: [String]) -> String? {
    var counts: [String: Int] = [:]
    for text in texts.prefix(400) {
      let lowered = text.lowercased()
      for (sport, words) in otherSports where words.contains(where: { FastText.offset(of: $0, in: lowered) != nil }) {
        counts[sport, default: 0] += 1
      }
    }
    return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
  }

  /// "Faceoff A vs B won by X, [14:21] Ground ball pickup by X B." → the faceoff and the ground ball.
  static func split(_ row: PlayRow) -> (PlayRow, PlayRow)? {
    guard row.text.utf8.starts(with: "Faceoff ".utf8), let (first, rest) = FastText.split(row.text, at: ", ["),
      let (clock, second) = FastText.split(rest, at: "] ")
    else { return nil }
    var faceoff = row
    faceoff.text = first + "."
    var follow = row
    follow.text = second
    follow.clock = clock
    follow.away = nil
    follow.home = nil
    follow.continuesRow = true
    return (faceoff, follow)
  }

  /// Each side's team tokens, from the texts that name a team and nothing else. (Bytes, not
  /// `Character`s: this ran over every play and was a third of reading a play-by-play.)
  static func learnTokens(_ rows: inout [PlayRow]) -> (away: [String], home: [String]) {
    var away = SeenTokens()
    var home = SeenTokens()
    for index in rows.indices {
      guard let side = rows[index].side else { continue }
      // The text's bytes read where they lie (`inout`: a copy to reach them retained the text per
      // play, and a local function to read them checked its access to the tokens at run time).
      rows[index].text.withUTF8 { bytes in
        guard let token = PlayTeamToken.token(inBytes: bytes), !token.isEmpty else { return }
        if side == .away { away.add(token) } else { home.add(token) }
      }
    }
    return (away.ordered, home.ordered)
  }

  /// The tokens a side's plays name, found by their bytes (a page's plays name a handful,
  /// so a list searched in order beats a string made and hashed per play).
  struct SeenTokens {
    private var tokens: [[UInt8]] = []

    mutating func add(_ token: UnsafeBufferPointer<UInt8>) {
      if !tokens.contains(where: { $0.elementsEqual(token) }) { tokens.append(Array(token)) }
    }

    /// Tokens of at most 12 characters, longer first, so "STONY BR" is tried before a "STONY" prefix.
    var ordered: [String] {
      tokens.map { String(decoding: $0, as: UTF8.self) }.filter { $0.count <= 12 }
        .sorted { ($0.count, $0) > ($1.count, $1) }
    }
  }

}
