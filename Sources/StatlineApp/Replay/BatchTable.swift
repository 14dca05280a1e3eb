import Foundation
import StatlineCore

/// The readable (non-JSON) form of a batch that `statline replay` prints.
public enum BatchTable {
  public static func render(_ batch: Batch) -> String {
    var lines: [String] = []
    lines.append("\(batch.parser) (source \(batch.source)) \(batch.url ?? "")")
    lines.append(
      [
        count(batch.games.count, "game"), count(batch.teams.count, "team"),
        count(batch.boxScores.count, "box score"), count(batch.plays.count, "play"),
      ].joined(separator: ", ") + (batch.rankings.isEmpty ? "" : ", " + count(batch.rankings.count, "ranking")))
    if !batch.games.isEmpty {
      let rows = batch.games.map { game -> [String] in
        let score = game.away.score.map { a in game.home.score.map { "\(a)-\($0)" } ?? "\(a)-" } ?? ""
        var notes: [String] = []
        if let label = game.periodLabel {
          notes.append(label)
        } else if let period = game.period {
          notes.append("P\(period)")
        }
        if let clock = game.clock { notes.append(clock) }
        if game.neutralSite == true { notes.append("neutral") }
        if let venue = game.venue { notes.append(venue) }
        return [
          game.date ?? "", game.status.rawValue, game.sport.rawValue, name(game.away), score, name(game.home),
          game.id, notes.joined(separator: ", "),
        ]
      }
      lines += table(header: ["DATE", "STATUS", "SPORT", "AWAY", "SCORE", "HOME", "ID", "NOTES"], rows: rows)
    }
    if !batch.teams.isEmpty {
      lines += table(
        header: ["TEAM", "ID", "CONFERENCE"], rows: batch.teams.map { [$0.name, $0.id, $0.conference ?? ""] })
    }
    for box in batch.boxScores { lines += boxScore(box, games: batch.games) }
    if !batch.plays.isEmpty {
      lines.append("")
      lines += table(
        header: ["#", "PER", "CLOCK", "SIDE", "TYPE", "PLAYER", "SCORE", "TEXT"],
        rows: batch.plays.map { play in
          let score = play.awayScore.map { a in "\(a)-\(play.homeScore ?? 0)" } ?? ""
          return [
            String(play.sequence), play.period.map(String.init) ?? "", play.clock ?? "", play.side?.rawValue ?? "",
            play.type.rawValue, play.player ?? "", score, play.text,
          ]
        })
    }
    for ranking in batch.rankings { lines += self.ranking(ranking) }
    for warning in batch.warnings { lines.append("warning: \(warning)") }
    return lines.joined(separator: "\n")
  }

  /// A poll's week: its name and week, then a row per rank.
  static func ranking(_ ranking: Ranking) -> [String] {
    let when = [ranking.week.map { "week \($0)" }, ranking.through.map { "through \($0)" }].compactMap { $0 }
    var lines = [
      "",
      "\(ranking.name) (\(ranking.sport.rawValue), season \(ranking.season), \(when.joined(separator: ", ")))  \(ranking.id)",
    ]
    lines += table(
      header: ["RANK", "TEAM", "POINTS", "1ST", "RECORD", "PREV"],
      rows: ranking.rows.map { row in
        [
          (row.tied ? "T" : "") + String(row.rank), row.team.name, row.points.map(String.init) ?? "",
          row.firstPlaceVotes.map(String.init) ?? "", row.record ?? "", row.previous.map(String.init) ?? "NR",
        ]
      })
    if !ranking.othersReceivingVotes.isEmpty {
      lines.append(
        "Others receiving votes: "
          + ranking.othersReceivingVotes.map { "\($0.team.name) \($0.points.map(String.init) ?? "")" }
          .joined(separator: ", "))
    }
    return lines
  }

  /// The main columns of a sport's box score (lacrosse's for a sport without its own).
  static func columns(for sport: Sport?) -> [(String, String)] {
    switch sport?.profile?.scoringKey {
    case "points" where sport == .basketballMen || sport == .basketballWomen:
      [
        ("PTS", "points"), ("FGM", "fieldGoalsMade"), ("FGA", "fieldGoalsAttempted"), ("3PM", "threePointersMade"),
        ("FTM", "freeThrowsMade"), ("REB", "rebounds"), ("AST", "assists"), ("TO", "turnovers"), ("STL", "steals"),
        ("BLK", "blocks"), ("PF", "fouls"),
      ]
    default:
      [
        ("G", StatKey.goals), ("A", StatKey.assists), ("SH", StatKey.shots), ("SOG", StatKey.shotsOnGoal),
        ("GB", StatKey.groundBalls), ("TO", StatKey.turnovers), ("CT", StatKey.causedTurnovers),
        ("FO", StatKey.faceoffsWon), ("DC", StatKey.drawControls), ("SV", StatKey.saves), ("GA", StatKey.goalsAllowed),
      ]
    }
  }

  /// Each team's players with the sport's main columns, then the team totals.
  static func boxScore(_ box: BoxScore, games: [Game]) -> [String] {
    let game = games.first { $0.id == box.gameId }
    let columns = Self.columns(for: game?.sport)
    var lines: [String] = []
    for side in [Side.away, .home] {
      let team = box[side]
      let shown = columns.filter { column in
        team.totals[column.1] != nil || team.players.contains { $0.stats[column.1] != nil }
      }
      lines.append("")
      lines.append("BOX \(side.rawValue.uppercased()): \(game.map { name($0[side]) } ?? box.gameId)")
      var rows = team.players.map { player -> [String] in
        [player.number ?? "", player.name, player.position ?? ""]
          + shown.map { column in player.stats[column.1].map(String.init) ?? (player.stats.isEmpty ? "-" : "") }
      }
      rows.append(["", "TOTALS", ""] + shown.map { column in team.totals[column.1].map(String.init) ?? "" })
      lines += table(header: ["NO", "PLAYER", "POS"] + shown.map(\.0), rows: rows)
    }
    return lines
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  private static func name(_ line: TeamLine) -> String {
    line.rank.map { "#\($0) \(line.team.name)" } ?? line.team.name
  }

  public static func table(header: [String], rows: [[String]]) -> [String] {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}
