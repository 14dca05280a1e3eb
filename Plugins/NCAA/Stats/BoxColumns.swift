import StatlineCore
import StatlineHTML

/// The columns of stats.ncaa.org's individual-stats tables (headers as printed, `<br />` read
/// as a space) → architecture.md#the-contract stat keys, by the sport's words (`BoxColumnNames`, `BoxFamily`).
/// Ratios (GAA, save percentage, batting average) are derived, so not kept.
enum BoxColumns {
  enum Column: Equatable {
    case number, name, position
    case stat(String)
    /// `60:00` (or a bare number of minutes) → seconds played.
    case minutes
    /// `2:00` (or a bare number of minutes) of penalties → penalty seconds.
    case penaltyTime
    /// Ice hockey's penalty minutes (`PIM`, a count of minutes) → penalty seconds.
    case penaltyMinutes
    /// Innings pitched (`5.2`) → outs pitched.
    case outs
    /// Volleyball's points (`20.5`: a block assist counts half): kept when whole, else left out
    /// and named in the line's `halves`.
    case wholePoints(String)
    /// A part of a key the page splits in two: football's rushing yards printed as yards gained
    /// and yards lost (`sign` -1), added into the key.
    case part(String, sign: Int)
    case ignored
  }

  /// A header's column in any sport's table: the name, number and position columns.
  static func column(_ header: String) -> Column? { BoxColumnNames.common[header.lowercased()] }

  /// The family the tables' headers print, or a clear refusal naming them.
  static func family(of headers: Set<String>) throws(StatlineError) -> BoxFamily {
    if let family = BoxFamily.of(Set(headers.map { $0.lowercased() })) { return family }
    throw StatlineError(
      .unsupported,
      "the contest's stat tables are of no sport the plugin reads (columns: \(headers.sorted().prefix(12).joined(separator: ", ")))",
      hint: "the NCAA plugin reads the box scores of lacrosse, basketball, baseball, softball, football, soccer, "
        + "field hockey, volleyball and ice hockey")
  }

  /// The sport and family of a box score's tables (`BoxFamily.sport`).
  static func sport(
    of headers: Set<String>, periods: Int?, hint: Sport?, warnings: inout [String]
  ) throws(StatlineError) -> (family: BoxFamily, sport: Sport) {
    let family = try family(of: headers)
    let lowered = Set(headers.map { $0.lowercased() })
    return (family, try family.sport(headers: lowered, periods: periods, hint: hint, warnings: &warnings))
  }

  /// `60:00`, `7:30` or `45` (minutes) → seconds.
  static func seconds(_ text: String) -> Int? {
    if let seconds = GameText.seconds(text) { return seconds }
    return GameText.int(text).map { $0 * 60 }
  }

  /// A table's header cells → columns, by their text and the family's words; a header the
  /// plugin does not know is reported, not guessed. `Goals` is goals; `G` is goals only where no
  /// `Goals` column exists (2020 legacy tables print `G`, games played, beside `Goals`). `Att`
  /// right after `Clears` is the clears attempted.
  static func columns(
    _ headers: [String], family: BoxFamily, table: String, warnings: inout [String]
  ) -> [Column] {
    let lowered = headers.map { $0.lowercased() }
    let hasGoals = lowered.contains("goals")
    let names = BoxColumnNames.dictionary(family, table: Set(lowered))
    return headers.indices.map { index in
      let header = headers[index]
      if lowered[index] == "g", hasGoals {
        warnings.append("\(table): column '\(header)' is games played here (the table has a Goals column): not read")
        return .ignored
      }
      if lowered[index] == "att", index > 0, lowered[index - 1] == "clears" { return .stat(StatKey.clearsAttempted) }
      if let column = BoxColumnNames.common[lowered[index]] ?? names[lowered[index]] { return column }
      warnings.append("\(table): column '\(header)' is not read")
      return .ignored
    }
  }

  /// Whether a table's columns are a player table of the family: a name and the family's
  /// scoring column (`BoxFamily.scoringKey`), or, in a family without one (football,
  /// volleyball), at least one stat the plugin reads: a table whose every number is unknown
  /// would give players without a stat, and is refused rather than stored half-filled.
  static func readsPlayers(_ columns: [Column], family: BoxFamily) -> Bool {
    guard columns.contains(.name) else { return false }
    if let key = family.scoringKey { return columns.contains(.stat(key)) }
    return columns.contains { column in
      switch column {
      case .stat, .minutes, .penaltyTime, .penaltyMinutes, .outs, .wholePoints, .part: true
      case .number, .name, .position, .ignored: false
      }
    }
  }

  /// What `readsPlayers` asks for, for an error: "a name and a goals column".
  static func requirement(_ family: BoxFamily) -> String {
    "a name and \(family.scoringKey.map { "a \($0)" } ?? "a stat") column"
  }

  /// A player table must be one (`readsPlayers`).
  static func checkPlayerTable(
    _ columns: [Column], family: BoxFamily, headers: [String], table: String
  ) throws(StatlineError) {
    guard !readsPlayers(columns, family: family) else { return }
    let missing = columns.contains(.name) ? family.scoringKey ?? "stat" : "name"
    throw StatlineError(
      .wrongPage,
      "\(table): the player table has no \(missing) column (headers: \(headers.prefix(20).joined(separator: ", ")))",
      hint: "the layout changed: the table's header row no longer names the columns the plugin needs")
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
      case .penaltyMinutes: if let minutes = GameText.int(text) { line.stats[StatKey.penaltySeconds] = minutes * 60 }
      case .outs: if let outs = GameText.outs(innings: text) { line.stats["outsPitched"] = outs }
      case .wholePoints(let key):
        if let value = GameText.int(text) {
          line.stats[key] = value
        } else if let value = Double(text) {
          if value == value.rounded() { line.stats[key] = Int(value) } else { line.halves.append(text) }
        }
      case .stat(let key): if let value = GameText.int(text) { line.stats[key] = value }
      case .part(let key, let sign): if let value = GameText.int(text) { line.stats[key, default: 0] += sign * value }
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
