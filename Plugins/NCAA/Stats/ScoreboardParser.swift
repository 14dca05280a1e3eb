import Foundation
import StatlineCore
import StatlineHTML

/// A daily scoreboard (`/contests/livestream_scoreboards?…`, STRUCTURE.md §5c): each game a
/// table whose first row has the date and time, `Attend: N` and the period or `Final`, then
/// `tr#contest_{id}` rows, away first, each with the team's link, period cells and the total —
/// or "Canceled" / "Ppd" in the score cell.
struct Scoreboard: Sendable, Equatable {
  struct Entry: Sendable, Equatable {
    struct Row: Sendable, Equatable {
      var teamId: String?
      var name: String
      var record: String?
      var periods: [Int]
      var total: String
      /// The source of the logo image the row shows for the team, as written.
      var logo: String? = nil
    }

    var contestId: String
    var date: String?
    var attendance: Int?
    var state: String
    var rows: [Row]
    /// A neutral site's line ("@Detroit, MI"), where the board prints one.
    var venueNote: String? = nil
    /// The board prints a state for each game (the season-division layout prints none).
    var statePrinted = true
    /// A doubleheader's game number (`02/14/2026(2)`).
    var gameNumber: Int? = nil
  }

  var sport: Sport
  var entries: [Entry]
}

struct ScoreboardParser: PageParser {
  func parse(_ page: Page) throws -> Scoreboard {
    let document = try StatsPage.document(page)
    // A scoreboard row does not depend on the sport: the sport is named from the page (its
    // selected sport, its heading) or the URL's sport_code, else it is unknown.
    let query = page.url.flatMap(URLComponents.init(string:))?.queryItems ?? []
    // The sport selector's selected option (`sport_code`, or `sport_code_select` on the
    // season-division board), by walking the tree as far as the selector.
    let selected = document.root?.firstDescendant(named: "select") {
      $0.attribute("name") == "sport_code" || $0.attribute("name") == "sport_code_select"
    }?
    .children(named: "option").first { $0.attribute("selected") != nil }?.attribute("value")
    let code = selected ?? query.first { $0.name == "sport_code" }?.value
    // The heading is asked only when the page and the URL name no sport code.
    let sport =
      try NCAASports.sport(code: code)
      ?? document.first(xpath: "//*[self::h1 or self::h2 or self::h3 or self::h4][contains(.,'Scoreboard')]")
      .flatMap { NCAASports.sport(name: $0.text) } ?? .unknown
    let division = DivisionScoreboardReader.entries(document).map { entry -> Scoreboard.Entry in
      var entry = entry
      entry.statePrinted = false
      return entry
    }
    if !division.isEmpty { return Scoreboard(sport: sport, entries: division) }
    var entries: [Scoreboard.Entry] = []
    // Each table's own rows (`tr` children, and those of its `tbody`), by walking the tree: a
    // table's `.//tr` would also take the rows of tables nested in its cells, and on tag soup
    // nested dozens deep those queries merged every nested copy of the page (a fuzzer's input
    // of 145 KB took 70 ms, and seconds under ASan).
    func isContest(_ row: Node) -> Bool { row.attribute("id")?.hasPrefix("contest_") == true }
    func teamLink(_ node: Node) -> Node? {
      node.firstDescendant(named: "a") { $0.attribute("href")?.hasPrefix("/teams/") == true }
    }
    for table in document.root?.descendants(named: "table") ?? [] {
      let rows = DivisionScoreboardReader.rows(of: table)
      let teamRows = rows.filter(isContest)
      guard let first = teamRows.first, let contestId = NCAAIds.number(after: "contest_", in: first.attribute("id"))
      else { continue }
      let heading = rows.first { !isContest($0) && !$0.children(named: "td").isEmpty }
      let headingCells = heading?.children(named: "td").map(\.text) ?? []
      let dated = headingCells.first.flatMap(ScheduleDate.leading)
      var entry = Scoreboard.Entry(contestId: contestId, date: dated?.date, attendance: nil, state: "", rows: [])
      entry.gameNumber = dated?.gameNumber
      for text in headingCells.dropFirst() {
        if let range = text.range(of: "Attend:") {
          entry.attendance = GameText.count(String(text[range.upperBound...]))
        } else if !text.isEmpty {
          entry.state = text
        }
      }
      for row in teamRows {
        let cells = row.children(named: "td")
        let link = teamLink(row)
        let nameCell = cells.first { teamLink($0) != nil && !$0.text.isEmpty }
        guard let link, let nameCell else {
          // A team without an NCAA page is plain text ("St. Francis (IL)").
          let name = cells.first { !$0.text.isEmpty && GameText.int($0.text) == nil }?.text ?? ""
          entry.rows.append(
            Scoreboard.Entry.Row(
              teamId: nil, name: name, record: nil, periods: Self.periods(cells, after: name),
              total: cells.last?.text ?? ""))
          continue
        }
        let name = link.firstDescendant(named: "img")?.attribute("alt") ?? nameCell.text
        let record = nameCell.text.firstIndex(of: "(").map {
          String(nameCell.text[$0...].dropFirst().prefix { $0 != ")" })
        }
        entry.rows.append(
          Scoreboard.Entry.Row(
            teamId: NCAAIds.number(after: "/teams/", in: link.attribute("href")), name: name, record: record,
            periods: Self.periods(cells, after: nameCell.text), total: cells.last?.text ?? "",
            logo: row.firstDescendant(named: "img")?.attribute("src")))
      }
      entries.append(entry)
    }
    guard !entries.isEmpty else {
      throw StatlineError(
        .wrongPage, "the scoreboard shows no games (no tr#contest_… rows)",
        hint: "the date may have no games, or the layout changed; a day without games still prints a message")
    }
    return Scoreboard(sport: sport, entries: entries)
  }

  /// The period cells: the numbers after the name cell, before the total.
  static func periods(_ cells: [Node], after name: String) -> [Int] {
    guard let index = cells.firstIndex(where: { $0.text == name }) else { return [] }
    return cells[(index + 1)..<max(index + 1, cells.count - 1)].compactMap { GameText.int($0.text) }
  }
}

/// Scoreboard entries → games: `Final` (with an overtime count) is final, a period is live,
/// "Canceled" / "Ppd" cancelled / postponed, no state and no score scheduled.
struct ScoreboardNormalizer: Normalizer {
  func normalize(_ board: Scoreboard, page: Page) throws -> Batch {
    var games: [Game] = []
    var teams: [Team] = []
    var warnings: [String] = []
    // A sport nobody named keeps four periods, as before (its final's period is the line's).
    let regulation = board.sport.profile?.regulationPeriods ?? 4
    for entry in board.entries {
      guard entry.rows.count == 2 else {
        warnings.append("contest \(entry.contestId) shows \(entry.rows.count) team rows, not 2: skipped")
        continue
      }
      let totals = entry.rows.map(\.total)
      // Only the start of a state or a total is ever compared: lower-casing the whole of a cell
      // that holds a page of tag soup cost a fuzzer's input most of its time.
      let state = entry.state.prefix(16).lowercased()
      var status: GameStatus
      var period: Int?
      var label: String?
      var clock: String?
      let starts = totals.map { $0.prefix(9).lowercased() }
      if starts.contains(where: { $0.hasPrefix("cancel") }) {
        status = .cancelled
      } else if starts.contains(where: { $0.hasPrefix("ppd") || $0.hasPrefix("postponed") }) {
        status = .postponed
      } else if state.hasPrefix("final") {
        status = .final
        label = entry.state
        period = max(entry.rows[0].periods.count, regulation)
      } else if let number = GraphQLContestsNormalizer.period(
        entry.state.split(separator: " ").first.map(String.init), linescores: 0, regulation: regulation),
        !state.isEmpty
      {
        status = .live
        period = number
        label = entry.state.split(separator: " ").first.map(String.init)
        clock = entry.state.split(separator: " ").last.flatMap { GameText.clock(String($0)) }
      } else if state.isEmpty && totals.allSatisfy({ $0.isEmpty }) {
        status = .scheduled
      } else {
        // Never guessed: a board that prints no state leaves a game with scores unknown (its
        // scores and periods kept), and says so once.
        status = .unknown
        if entry.statePrinted {
          warnings.append("contest \(entry.contestId): state '\(entry.state.prefix(80))' is not read")
        }
      }
      let scored = totals.allSatisfy { GameText.int($0) != nil }
      let started = status == .live || status == .final || (status == .unknown && scored)
      if status == .unknown, scored, !entry.statePrinted { period = entry.rows[0].periods.count }
      let lines = entry.rows.map { row in
        TeamLine(
          team: TeamRef(id: row.teamId.map(NCAAIds.seasonTeam), name: row.name),
          score: started ? GameText.int(row.total) : nil, periodScores: started ? row.periods : [], record: row.record)
      }
      let venue = entry.venueNote.flatMap { $0.hasPrefix("@") ? String($0.dropFirst()) : nil }
      var game = Game(
        id: NCAAIds.contest(entry.contestId), sport: board.sport, status: status, period: period, periodLabel: label,
        clock: clock, date: entry.date, venue: venue, attendance: entry.attendance,
        neutralSite: entry.statePrinted ? nil : venue != nil, away: lines[0], home: lines[1])
      game.gameNumber = entry.gameNumber
      if status == .final, let a = game.away.score, let h = game.home.score {
        game.away.winner = a > h
        game.home.winner = h > a
      }
      games.append(game)
      for row in entry.rows {
        guard let id = row.teamId.map(NCAAIds.seasonTeam), !teams.contains(where: { $0.id == id }) else { continue }
        teams.append(Team(id: id, name: row.name, sport: board.sport, logoURL: Team.logoURL(row.logo, page: page.url)))
      }
    }
    guard !games.isEmpty else {
      throw StatlineError(
        .wrongPage, "no game on the scoreboard could be read (\(warnings.joined(separator: "; ")))",
        hint: "the layout may have changed")
    }
    let unstated = board.entries.filter { !$0.statePrinted }.count
    if unstated > 0 {
      warnings.append("the board prints no status: its \(unstated) games are unknown (scores and periods as printed)")
    }
    return Batch(games: games, teams: teams, warnings: warnings)
  }
}
