import Foundation
import StatlineCore
import StatlineHTML

/// The game header every stats.ncaa.org contest tab shows (STRUCTURE.md §2a): both teams
/// (visitor first) with season-team ids, names, records and scores, the winner mark, and the
/// linescore with date, venue and attendance below it.
struct ContestHeader: Sendable, Equatable {
  struct Competitor: Sendable, Equatable {
    var seasonTeamId: String?
    /// The logo's alt text or the linescore's name: "Air Force".
    var shortName: String
    /// "Air Force Falcons".
    var fullName: String?
    /// "0-1, Conf 0-0" → "0-1".
    var record: String?
    var score: Int?
    var winner = false
    var periodScores: [Int] = []
    /// The header logo's image source, as written (absolute on the pages seen).
    var logo: String?
  }

  var contestId: String
  var visitor: Competitor
  var home: Competitor
  /// The linescore's period headers: "1" … "4", "1OT", "2OT".
  var periodLabels: [String]
  var date: String?
  var venue: String?
  var attendance: Int?

  /// Final when the site marks a winner; live when regulation periods are still blank (the
  /// last filled one is the period); anything else is unknown (never guessed). In innings the
  /// visitor bats first: a line one inning longer than the home team's is the top of that
  /// inning, and the game is live until the home team has batted in regulation's last inning.
  /// A match in sets is live until a side has won the sets it needs.
  func status(sport: Sport) -> (status: GameStatus, period: Int?, label: String?) {
    let played = min(visitor.periodScores.count, home.periodScores.count)
    let profile = sport.profile
    if profile?.period == .inning {
      let inning = max(visitor.periodScores.count, home.periodScores.count)
      if visitor.winner || home.winner { return (.final, inning > 0 ? inning : nil, "Final") }
      guard inning > 0, inning < regulation || home.periodScores.count < inning else { return (.unknown, nil, nil) }
      let half = home.periodScores.count < inning ? "Top " : "Bottom "
      return (.live, inning, half + SportProfile.ordinal(inning))
    }
    if visitor.winner || home.winner {
      return (.final, played > 0 ? played : nil, "Final")
    }
    if let profile, profile.period == .set {
      let needed = profile.regulationPeriods / 2 + 1
      let won = zip(visitor.periodScores, home.periodScores).reduce(into: (0, 0)) { won, set in
        if set.0 > set.1 { won.0 += 1 } else if set.1 > set.0 { won.1 += 1 }
      }
      guard played > 0, max(won.0, won.1) < needed else { return (.unknown, nil, nil) }
      return (.live, played, profile.periodLabel(played))
    }
    if played > 0 && played < min(regulation, periodLabels.count) {
      return (.live, played, GameText.periodLabel(played, regulation))
    }
    return (.unknown, nil, nil)
  }

  /// The line score's numbered periods (`1 2` for men's basketball halves, `1 2 3 4` for
  /// quarters, `1` … `9` for innings; `1OT` and the totals are not numbers); four when the
  /// header has no line score.
  var regulation: Int { Self.regulation(periodLabels) }

  /// The line score's numbered periods; nil when the header has none.
  var numberedPeriods: Int? { Self.numberedPeriods(periodLabels) }

  /// The numbered periods of a line score's header cells (current and legacy layouts).
  static func regulation(_ periodLabels: [String]) -> Int { numberedPeriods(periodLabels) ?? 4 }

  static func numberedPeriods(_ periodLabels: [String]) -> Int? {
    let numbered = periodLabels.filter { Int($0) != nil }.count
    return numbered > 0 ? numbered : nil
  }

  /// The line score's total columns: lacrosse's and basketball's `S` or `T`, baseball's runs,
  /// hits and errors (`R H E`); the runs or the total is the score.
  static let totalLabels: Set<String> = ["S", "T", "R", "H", "E"]

  /// The header of a page read as a tree.
  static func read(_ document: Document, page: Page) throws -> ContestHeader {
    try read(table: document.root?.firstDescendant(named: "table", where: isHeader), page: page)
  }

  /// The header table: centred, with a score cell (`font-size:36px`).
  static func isHeader<Element: ElementNode>(_ table: Element) -> Bool {
    table.attribute("align") == "center"
      && table.descendants(named: "td").contains { cell in
        cell.attribute("style").map { FastText.contains($0, ignoringSpaces: "font-size:36px") } ?? false
      }
  }

  /// Reads the header table (`isHeader`), wherever the page kept it; nil when the page has none.
  static func read<Element: ElementNode>(table: Element?, page: Page) throws -> ContestHeader {
    guard let table else {
      throw StatlineError(
        .wrongPage, "the page has no contest header (the centred table with both teams' scores)",
        hint: "this is not a stats.ncaa.org contest tab, or its layout changed")
    }
    let tabLink = table.firstDescendant(named: "a") { $0.attribute("href")?.hasPrefix("/contests/") == true }
    let contestId =
      NCAAIds.number(after: "/contests/", in: page.url)
      ?? NCAAIds.number(after: "/contests/", in: tabLink?.attribute("href"))
    guard let contestId else {
      throw StatlineError(
        .wrongPage, "neither the URL nor the header's tab links give the contest id",
        hint: "replay the page with --url https://stats.ncaa.org/contests/{id}/…")
    }
    var teams: [Competitor] = []
    var linescore: Element?
    let firstRow =
      (table.children(named: "tr").first ?? table.children(named: "tbody").first?.children(named: "tr").first)
    for cell in firstRow?.children(named: "td") ?? [] {
      if let nested = cell.firstDescendant(named: "table") {
        linescore = nested
        continue
      }
      let classes = cell.attribute("class") ?? ""
      if let span = cell.children(named: "span").first {
        let name = span.text
        let link = Self.teamLink(in: span)
        if teams.isEmpty || teams[teams.count - 1].fullName != nil {
          teams.append(Competitor(shortName: name))
        }
        teams[teams.count - 1].fullName = name
        if teams[teams.count - 1].seasonTeamId == nil {
          teams[teams.count - 1].seasonTeamId = NCAAIds.number(after: "/teams/", in: link?.attribute("href"))
        }
        let rest = cell.text.replacingOccurrences(of: name, with: "").trimmingCharacters(in: .whitespaces)
        teams[teams.count - 1].record = rest.split(separator: ",").first.map {
          $0.trimmingCharacters(in: .whitespaces)
        }
      } else if let logo = Self.teamLink(in: cell) {
        var team = Competitor(shortName: logo.firstDescendant(named: "img")?.attribute("alt") ?? logo.text)
        team.seasonTeamId = NCAAIds.number(after: "/teams/", in: logo.attribute("href"))
        team.logo = logo.firstDescendant(named: "img")?.attribute("src")
        teams.append(team)
      } else if FastText.contains(cell.attribute("style") ?? "", ignoringSpaces: "font-size:36px"), !teams.isEmpty {
        teams[teams.count - 1].score = GameText.int(cell.text)
      } else if classes.split(separator: " ").contains("winner"), !teams.isEmpty {
        teams[teams.count - 1].winner = true
      }
    }
    guard teams.count == 2 else {
      throw StatlineError(
        .wrongPage, "the contest header shows \(teams.count) teams, not 2",
        hint: "the header layout may have changed")
    }
    var header = ContestHeader(
      contestId: contestId, visitor: teams[0], home: teams[1], periodLabels: [], date: nil, venue: nil,
      attendance: nil)
    if let linescore { header.readLinescore(linescore) }
    return header
  }

  /// The first link to a season team's page (`/teams/…`) within `node`.
  private static func teamLink<Element: ElementNode>(in node: Element) -> Element? {
    node.firstDescendant(named: "a") { $0.attribute("href")?.hasPrefix("/teams/") == true }
  }

  /// Header cells, one row per team (visitor first), then the date, venue and attendance rows.
  private mutating func readLinescore<Element: ElementNode>(_ table: Element) {
    let rows = StatsPage.rows(of: table)
    var teamRows = 0
    var totalColumn: Int?
    for row in rows {
      let cells = row.children(named: "td")
      if cells.count == 1 {
        let text = cells[0].text
        if let attendance = text.range(of: "Attendance:") {
          self.attendance = GameText.count(String(text[attendance.upperBound...]))
        } else if let first = text.split(separator: " ").first, let date = GameText.date(String(first)) {
          self.date = date
        } else if !text.isEmpty, venue == nil {
          venue = text
        }
        continue
      }
      guard cells.count >= 2 else { continue }
      if periodLabels.isEmpty && cells[0].text.isEmpty {
        let labels = cells.dropFirst().map(\.text)
        periodLabels = labels.filter { !Self.totalLabels.contains($0) && !$0.isEmpty }
        totalColumn = labels.firstIndex { $0 == "S" || $0 == "T" || $0 == "R" }.map { $0 + 1 }
        continue
      }
      // A period not played yet is blank; baseball's home ninth that was not needed is `X`.
      let values = cells.dropFirst().prefix(periodLabels.count).map { GameText.int($0.text) }
      let filled = Array(values.prefix { $0 != nil }.compactMap { $0 })
      let total = GameText.int((totalColumn.flatMap { $0 < cells.count ? cells[$0] : nil } ?? cells.last)?.text)
      if teamRows == 0 { visitor.periodScores = filled } else if teamRows == 1 { home.periodScores = filled }
      if teamRows == 0, visitor.score == nil { visitor.score = total }
      if teamRows == 1, home.score == nil { home.score = total }
      teamRows += 1
    }
  }

  /// The header as the model's game (without sport-specific parts).
  func game(sport: Sport) -> Game {
    let (status, period, label) = self.status(sport: sport)
    func line(_ team: Competitor) -> TeamLine {
      TeamLine(
        team: TeamRef(id: team.seasonTeamId.map(NCAAIds.seasonTeam), name: team.shortName),
        score: team.score, periodScores: team.periodScores, record: team.record,
        winner: status == .final ? team.winner : nil)
    }
    return Game(
      id: NCAAIds.contest(contestId), sport: sport, status: status, period: period, periodLabel: label,
      date: date, venue: venue, attendance: attendance, away: line(visitor), home: line(home))
  }

  /// Both teams as the model's teams.
  func teams(sport: Sport) -> [Team] {
    [visitor, home].compactMap { team in
      team.seasonTeamId.map {
        Team(
          id: NCAAIds.seasonTeam($0), name: team.fullName ?? team.shortName, sport: sport,
          shortName: team.fullName == nil || team.fullName == team.shortName ? nil : team.shortName,
          logoURL: Team.logoURL(team.logo, page: nil))
      }
    }
  }
}
