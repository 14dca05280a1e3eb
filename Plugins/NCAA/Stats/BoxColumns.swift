import StatlineCore
import StatlineHTML

/// The columns of stats.ncaa.org's individual-stats tables (headers as printed, `<br />` read
/// as a space) → DESIGN.md §4 stat keys. Ratios (GAA, save percentage) are derived, so not kept.
enum BoxColumns {
  enum Column: Equatable {
    case number, name, position
    case stat(String)
    /// `60:00` (or a bare number of minutes) → seconds played.
    case minutes
    /// `2:00` (or a bare number of minutes) of penalties → penalty seconds.
    case penaltyTime
    case ignored
  }

  static let columns: [String: Column] = [
    "#": .number, "name": .name, "player": .name, "p": .position, "pos": .position,
    "min": .minutes, "g min": .minutes, "mins": .minutes,
    "goals": .stat(StatKey.goals), "g": .stat(StatKey.goals), "assists": .stat(StatKey.assists),
    "a": .stat(StatKey.assists), "points": .stat(StatKey.points), "pts": .stat(StatKey.points),
    "shots": .stat(StatKey.shots), "sog": .stat(StatKey.shotsOnGoal), "gb": .stat(StatKey.groundBalls),
    "to": .stat(StatKey.turnovers), "ct": .stat(StatKey.causedTurnovers),
    "fo won": .stat(StatKey.faceoffsWon), "fos taken": .stat(StatKey.faceoffsTaken),
    "fo taken": .stat(StatKey.faceoffsTaken), "dc": .stat(StatKey.drawControls),
    "draw controls": .stat(StatKey.drawControls), "fps": .stat(StatKey.freePositionShots),
    "fp shots": .stat(StatKey.freePositionShots), "fpg": .stat(StatKey.freePositionGoals),
    "fp goals": .stat(StatKey.freePositionGoals), "goals allowed": .stat(StatKey.goalsAllowed),
    "ga": .stat(StatKey.goalsAllowed), "saves": .stat(StatKey.saves), "pen": .stat(StatKey.penalties),
    "penalties": .stat(StatKey.penalties), "gaa": .ignored, "save pct": .ignored, "sv pct": .ignored,
    "pen time": .penaltyTime, "clears": .stat(StatKey.clearsMade), "clear att": .stat(StatKey.clearsAttempted),
    "clears att": .stat(StatKey.clearsAttempted), "clear pct": .ignored,
    // Basketball (the column names other public scrapers of stats.ncaa.org read; no real
    // basketball box score is saved here): made/attempted pairs, rebounds, minutes as `MP`.
    "mp": .minutes, "fgm": .stat("fieldGoalsMade"), "fga": .stat("fieldGoalsAttempted"),
    "3fg": .stat("threePointersMade"), "3fga": .stat("threePointersAttempted"), "ft": .stat("freeThrowsMade"),
    "fta": .stat("freeThrowsAttempted"), "orebs": .stat("offensiveRebounds"), "drebs": .stat("defensiveRebounds"),
    "tot reb": .stat("rebounds"), "ast": .stat(StatKey.assists), "stl": .stat("steals"), "blk": .stat("blocks"),
    "fouls": .stat("fouls"), "dq": .ignored, "tech fouls": .ignored, "fg%": .ignored, "3fg%": .ignored,
    "ft%": .ignored,
  ]

  /// The headers that only a basketball box score prints.
  static let basketballHeaders: Set<String> = ["fgm", "3fg", "3fga", "tot reb", "orebs"]

  static func column(_ header: String) -> Column? { columns[header.lowercased()] }

  /// The sport the columns belong to: faceoffs → men's lacrosse, draw controls → women's;
  /// field goals and rebounds → basketball, men's when the header's line score has two halves,
  /// women's when it has four quarters (`regulation`, the line score's numbered periods), else
  /// unknown; other sports' tables are refused with the columns seen.
  static func sport(of headers: Set<String>, regulation: Int) throws -> Sport {
    let lowered = Set(headers.map { $0.lowercased() })
    if lowered.contains("dc") || lowered.contains("draw controls") { return .lacrosseWomen }
    if lowered.contains("fo won") || (lowered.contains("gb") && lowered.contains("ct")) { return .lacrosseMen }
    if !lowered.isDisjoint(with: basketballHeaders) {
      return regulation == 2 ? .basketballMen : regulation == 4 ? .basketballWomen : .unknown
    }
    throw StatlineError(
      .unsupported,
      "the contest's stat tables are neither lacrosse nor basketball (columns: \(headers.sorted().prefix(12).joined(separator: ", ")))",
      hint: "the NCAA plugin reads the box scores of men's and women's lacrosse and basketball")
  }

  /// The column that adds up to the score: a basketball table's points, a lacrosse table's goals.
  static func scoringKey(headers: some Sequence<String>) -> String {
    headers.contains { basketballHeaders.contains($0.lowercased()) } ? StatKey.points : StatKey.goals
  }

  /// `60:00`, `7:30` or `45` (minutes) → seconds.
  static func seconds(_ text: String) -> Int? {
    if let seconds = GameText.seconds(text) { return seconds }
    return GameText.int(text).map { $0 * 60 }
  }

  /// A table's header cells → columns, by their text; a header the plugin does not know is
  /// reported, not guessed. `Goals` is goals; `G` is goals only where no `Goals` column exists
  /// (2020 legacy tables print `G`, games played, beside `Goals`). `Att` right after `Clears` is
  /// the clears attempted.
  static func columns(_ headers: [String], table: String, warnings: inout [String]) -> [Column] {
    let lowered = headers.map { $0.lowercased() }
    let hasGoals = lowered.contains("goals")
    return headers.indices.map { index in
      let header = headers[index]
      if lowered[index] == "g", hasGoals {
        warnings.append("\(table): column '\(header)' is games played here (the table has a Goals column): not read")
        return .ignored
      }
      if lowered[index] == "att", index > 0, lowered[index - 1] == "clears" { return .stat(StatKey.clearsAttempted) }
      if let column = column(header) { return column }
      warnings.append("\(table): column '\(header)' is not read")
      return .ignored
    }
  }

  /// The table's columns hold a name and the scoring column (goals; a basketball table's
  /// points): what a player table must have.
  static func checkPlayerTable(_ columns: [Column], headers: [String], table: String) throws(StatlineError) {
    let scoring = scoringKey(headers: headers)
    guard columns.contains(.name), columns.contains(.stat(scoring)) else {
      throw StatlineError(
        .wrongPage,
        "\(table): the player table has no \(columns.contains(.name) ? scoring : "name") column "
          + "(headers: \(headers.prefix(20).joined(separator: ", ")))",
        hint: "the layout changed: the table's header row no longer names the columns the plugin needs")
    }
  }

  /// One row's cells read by the table's columns. A name cell's player link gives the player id.
  static func line<Element: ElementNode>(_ cells: [Element], columns: [Column]) -> ContestBox.Line {
    var line = ContestBox.Line(name: "")
    line.stats.reserveCapacity(columns.count)
    for (column, cell) in zip(columns, cells) {
      // Some tables end numbers with a slash ("60:00/", "1/", "1.000/").
      var text = cell.text
      if text.hasSuffix("/") { text.removeLast() }
      switch column {
      case .number: line.number = text.isEmpty ? nil : text
      case .name:
        let link = cell.firstDescendant(named: "a").flatMap {
          $0.attribute("href")?.hasPrefix("/players/") == true ? $0 : nil
        }
        line.name = link?.text ?? text
        line.playerId = NCAAIds.number(after: "/players/", in: link?.attribute("href"))
      case .position: line.position = text.isEmpty ? nil : text
      case .minutes: if let seconds = seconds(text), seconds > 0 { line.stats[StatKey.secondsPlayed] = seconds }
      case .penaltyTime: if let seconds = seconds(text) { line.stats[StatKey.penaltySeconds] = seconds }
      case .stat(let key): if let value = GameText.int(text) { line.stats[key] = value }
      case .ignored: break
      }
    }
    return line
  }

  /// A team's tables as the model's half of a box score, names "First Last".
  static func teamBox(_ tables: ContestBox.TeamTables) -> TeamBox {
    TeamBox(
      totals: tables.totals,
      players: tables.players.map {
        PlayerLine(name: PersonName.normalized($0.name), number: $0.number, position: $0.position, stats: $0.stats)
      })
  }
}
