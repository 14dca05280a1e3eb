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
  ]

  static func column(_ header: String) -> Column? { columns[header.lowercased()] }

  /// The sport the columns belong to: faceoffs → men's lacrosse, draw controls → women's; other
  /// sports' tables are refused with the columns seen.
  static func sport(of headers: Set<String>) throws -> Sport {
    let lowered = Set(headers.map { $0.lowercased() })
    if lowered.contains("dc") || lowered.contains("draw controls") { return .lacrosseWomen }
    if lowered.contains("fo won") || (lowered.contains("gb") && lowered.contains("ct")) { return .lacrosseMen }
    throw StatlineError(
      .unsupported,
      "the contest's stat tables are not lacrosse (columns: \(headers.sorted().prefix(12).joined(separator: ", ")))",
      hint: "the NCAA plugin reads men's and women's lacrosse; other sports are not supported yet")
  }

  /// `60:00`, `7:30` or `45` (minutes) → seconds.
  static func seconds(_ text: String) -> Int? {
    if let seconds = GameText.seconds(text) { return seconds }
    return GameText.int(text).map { $0 * 60 }
  }

  /// A table's header cells → columns; a header the plugin does not know is reported, not guessed.
  static func columns(_ headers: [String], table: String, warnings: inout [String]) -> [Column] {
    headers.map { header in
      if let column = column(header) { return column }
      warnings.append("\(table): column '\(header)' is not read")
      return .ignored
    }
  }

  /// One row's cells read by the table's columns. A name cell's player link gives the player id.
  static func line<Element: ElementNode>(_ cells: [Element], columns: [Column]) -> ContestBox.Line {
    var line = ContestBox.Line(name: "")
    line.stats.reserveCapacity(columns.count)
    for (column, cell) in zip(columns, cells) {
      let text = cell.text
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
