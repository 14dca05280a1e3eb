import Foundation
import StatlineCore
import StatlineHTML

/// stats.ncaa.org's football play-by-play: no period tables, but drives. Each quarter is an
/// `<h1>` ("1st Quarter") and a `div.drives` of drives; a drive's header names the team with
/// the ball, how the drive ended ("PUNT", "TD", "FG"), where it began and the score after it
/// (`div.headerRight`, "visitor - home"); its plays follow, each a bold down-and-distance span
/// and a span of text that opens with its clock ("(08:16) Reichle,Jake rush …"). (The markup of
/// real pages, 2019 to 2025, as public scrapers of the site read it.)
///
/// The score after each drive is the running score; which play of the drive scored, and for
/// which side, is read from the words (`TOUCHDOWN`, `kick attempt good`, `field goal … GOOD`,
/// `attempt successful`, `SAFETY`), checked against that score: what the words do not explain
/// is put on the drive's last play, with a warning, so the running score always matches the
/// page and never a point is invented. A drive that runs into the next quarter carries its
/// plays past the quarter's "Start of 2nd quarter" row in the next period.
enum FootballDrives {
  struct Read: Sendable, Equatable {
    var rows: [PlayRow]
    var warnings: [String]
  }

  /// The page's drives as play rows with the running score on its scoring plays; nil when the
  /// page has no `div.drives`.
  static func read(_ document: Document, header: ContestHeader) throws -> Read? {
    guard let root = document.root else { return nil }
    let containers = try root.select(
      xpath: "//h1 | //div[contains(concat(' ', normalize-space(@class), ' '), ' drives ')]")
    guard containers.contains(where: { $0.name == "div" }) else { return nil }
    var labels: [String] = []
    var label: String?
    var drives: [(container: Int, nodes: [Node])] = []
    for node in containers {
      if node.name == "h1" {
        label = node.words
        continue
      }
      labels.append(label ?? "")
      label = nil
      let parts = try node.select(
        xpath: ".//div[contains(concat(' ', normalize-space(@class), ' '), ' headerRight ')]"
          + " | .//span[contains(@style, 'bold')]")
      drives.append((labels.count - 1, parts))
    }
    var reader = Reader(header: header, labels: labels)
    for (container, nodes) in drives { reader.read(nodes, container: container) }
    reader.endDrive()
    reader.unlistedPeriods()
    return Read(rows: reader.rows, warnings: reader.warnings)
  }

  /// The rows and the running score, a drive at a time.
  private struct Reader {
    let header: ContestHeader
    let labels: [String]
    var rows: [PlayRow] = []
    var warnings: [String] = []
    var score = (away: 0, home: 0)
    var period = 1
    /// The drive being read: where its rows start, its offense, its title and the score after it.
    var driveStart = 0
    var offense: Side?
    var title = ""
    var after: (away: Int, home: Int)?

    init(header: ContestHeader, labels: [String]) {
      self.header = header
      self.labels = labels
    }

    mutating func read(_ nodes: [Node], container: Int) {
      period = max(period, container + 1)
      for node in nodes {
        if node.name == "div" {
          endDrive()
          startDrive(node)
        } else if let text = FootballDrives.playText(after: node) {
          add(text)
        }
      }
    }

    mutating func startDrive(_ scoreCell: Node) {
      driveStart = rows.count
      after = PlayRow.score(scoreCell.words)
      let lefts = scoreCell.parent?.children(named: "div").filter {
        $0.attribute("class")?.contains("headerLeft") == true
      }
      let team = lefts?.first?.words ?? ""
      offense = FootballDrives.side(of: team, header: header)
      title = ([team] + (lefts?.dropFirst().map(\.words) ?? [])).joined(separator: " ")
    }

    mutating func add(_ text: String) {
      let opening = PlayRow.openingClock(text)
      let clock = opening?.clock
      let text = opening?.rest ?? text
      if let started = FootballDrives.quarterStarted(text) { period = max(period, started) }
      let label = period <= labels.count && !labels[period - 1].isEmpty ? labels[period - 1] : nil
      rows.append(PlayRow(period: period, periodLabel: label, clock: clock, side: offense, text: text))
    }

    /// Periods after the last play that list no drives, though the line score gives them
    /// points: a real page of a game decided in overtime prints its "1st OT" heading over an
    /// empty `div.drives`. Each side's points there are one row (`fromLineScore`, no text): what
    /// the page's own line score proves, a score with no play read, named in a warning. (Without
    /// it the plays' running score stops short of the game's, and every play of the game was
    /// refused.)
    mutating func unlistedPeriods() {
      let last = rows.last?.period ?? 0
      for (index, label) in labels.enumerated() where index + 1 > last {
        let away = index < header.visitor.periodScores.count ? header.visitor.periodScores[index] : 0
        let home = index < header.home.periodScores.count ? header.home.periodScores[index] : 0
        guard away > 0 || home > 0 else { continue }
        let name = label.isEmpty ? "period \(index + 1)" : label
        warnings.append(
          "\(name) lists no drives, but the line score gives it \(away)-\(home): "
            + "stored as a score with no play read for each side that scored (details.fromLineScore)")
        for (side, points) in [(Side.away, away), (Side.home, home)] where points > 0 {
          if side == .away { score.away += points } else { score.home += points }
          var row = PlayRow(
            period: index + 1, periodLabel: label.isEmpty ? nil : label, clock: nil, side: side, text: "",
            away: score.away, home: score.home)
          row.listed = true
          row.fromLineScore = true
          rows.append(row)
        }
      }
    }

    /// Puts the drive's points on its scoring plays (`FootballDrives.points`), each for the
    /// side whose score rose by at least as much; what is left goes on the drive's last row.
    mutating func endDrive() {
      defer { after = nil }
      guard let after else { return }
      guard driveStart < rows.count else {
        // No play to put its points on: the next drive's plays carry them, and this says whose they were.
        if after != score && (after.away >= score.away && after.home >= score.home) {
          warnings.append(
            "drive '\(title)': the score rose to \(after.away)-\(after.home) but the drive lists no plays; "
              + "its points are put with the next drive's")
        }
        return
      }
      var left = (away: after.away - score.away, home: after.home - score.home)
      guard left.away >= 0, left.home >= 0 else {
        // A score that falls is a correction: the last row prints it, and it is the new base.
        rows[rows.count - 1].away = after.away
        rows[rows.count - 1].home = after.home
        score = after
        return
      }
      var running = score
      for index in driveStart..<rows.count {
        let text = rows[index].text
        for (points, defense) in FootballDrives.points(text) {
          let preferred = defense ? offense?.other : offense
          let other = preferred?.other
          let room: (Side?) -> Bool = { side in
            guard let side else { return false }
            return (side == .away ? left.away : left.home) >= points
          }
          let side = room(preferred) ? preferred : room(other) ? other : room(.away) ? .away : room(.home) ? .home : nil
          guard let side else { continue }
          if side == .away {
            left.away -= points
            running.away += points
          } else {
            left.home -= points
            running.home += points
          }
          rows[index].away = running.away
          rows[index].home = running.home
        }
      }
      if left.away != 0 || left.home != 0 {
        warnings.append(
          "drive '\(title)': \(left.away + left.home) of its points are not explained by its plays' words; "
            + "put on its last play, \"\(rows[rows.count - 1].text.prefix(60))\"")
        rows[rows.count - 1].away = after.away
        rows[rows.count - 1].home = after.home
      }
      score = after
    }
  }

  /// The text of a play: the span after its bold down-and-distance span.
  static func playText(after bold: Node) -> String? {
    guard let play = bold.parent else { return nil }
    let spans = play.children(named: "span")
    guard let at = spans.firstIndex(where: { $0.attribute("style")?.contains("bold") == true }), at + 1 < spans.count
    else { return nil }
    let text = spans[at + 1].words
    return text.isEmpty ? nil : text
  }

  /// The side a drive's team name is, by the header's names.
  static func side(of team: String, header: ContestHeader) -> Side? {
    let name = team.lowercased()
    guard !name.isEmpty else { return nil }
    func named(_ competitor: ContestHeader.Competitor) -> Bool {
      [competitor.shortName, competitor.fullName ?? ""].contains { !$0.isEmpty && $0.lowercased().hasPrefix(name) }
    }
    return named(header.visitor) ? .away : named(header.home) ? .home : nil
  }

  /// "Start of 2nd quarter, clock 15:00." → 2.
  static func quarterStarted(_ text: String) -> Int? {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("start of "), lowered.contains(" quarter") else { return nil }
    let ordinal = lowered.dropFirst("start of ".count).prefix { $0.isNumber }
    return Int(ordinal)
  }

  /// The points a play's words say it scored, in order, each with whether the defense scored
  /// them (a safety, an interception or fumble returned): a touchdown (not one nullified), a
  /// kick after it that is good, a field goal that is good, a two-point try that succeeds.
  static func points(_ text: String) -> [(points: Int, defense: Bool)] {
    let lowered = text.lowercased()
    var found: [(Int, Bool)] = []
    let returned = lowered.contains("intercepted") || lowered.contains("fumble") || lowered.contains("blocked")
    if text.contains("TOUCHDOWN"), !text.contains("TOUCHDOWN nullified"), !text.contains("NO PLAY") {
      found.append((6, returned))
    }
    if lowered.contains("field goal"), text.contains("GOOD"), !text.contains("NO GOOD") { found.append((3, false)) }
    if lowered.contains("kick attempt good") || lowered.contains("extra point good") { found.append((1, false)) }
    if lowered.contains("attempt successful") { found.append((2, false)) }
    if text.contains("SAFETY") { found.append((2, true)) }
    return found
  }

  /// Who scored, where the words name them in the site's "Last,First": a pass's receiver, a
  /// returner, else the player the play opens with (after a formation: `Shotgun`, `No Huddle`).
  static func scorer(_ text: String) -> String? {
    if let complete = text.range(of: "pass complete"),
      let to = text.range(of: " to ", range: complete.upperBound..<text.endIndex)
    {
      return name(opening: text[to.upperBound...])
    }
    if let returned = text.range(of: " return "), text.contains("TOUCHDOWN") {
      let before = text[..<returned.lowerBound].split(separator: " ")
      if let last = before.last {
        let suffixed = before.count >= 2 && last.contains(",") && isSuffix(last.prefix { $0 != "," })
        return name(opening: Substring((suffixed ? "\(before[before.count - 2]) " : "") + last))
      }
    }
    var words = Substring(text)
    for formation in ["No Huddle-Shotgun ", "No Huddle ", "Shotgun ", "Pistol ", "Wildcat ", "Under Center "]
    where words.hasPrefix(formation) {
      words = words.dropFirst(formation.count)
      break
    }
    return name(opening: words)
  }

  /// "Crosby,Marquis caught at …" → "Marquis Crosby"; "Hatcher Jr.,Cornell rush …" → "Cornell
  /// Hatcher Jr."; nil when the text does not open with such a name.
  static func name(opening text: Substring) -> String? {
    let words = text.split(separator: " ", maxSplits: 2)
    guard let first = words.first else { return nil }
    var raw = first
    if !first.contains(","), words.count >= 2, words[1].contains(","), isSuffix(words[1].prefix { $0 != "," }) {
      raw = text[first.startIndex..<words[1].endIndex]
    }
    let parts = raw.split(separator: ",", maxSplits: 1)
    guard parts.count == 2, parts[0].first?.isUppercase == true else { return nil }
    let given = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: ".,;()"))
    guard given.first?.isUppercase == true, given.allSatisfy({ $0.isLetter || $0 == "'" || $0 == "-" || $0 == "." })
    else { return nil }
    return PersonName.normalized("\(parts[0]), \(given)")
  }

  static func isSuffix(_ word: Substring) -> Bool {
    ["Jr.", "Jr", "Sr.", "Sr", "II", "III", "IV", "V"].contains(String(word))
  }
}
