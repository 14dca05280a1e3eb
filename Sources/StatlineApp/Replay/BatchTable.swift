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
      ].joined(separator: ", "))
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
    for warning in batch.warnings { lines.append("warning: \(warning)") }
    return lines.joined(separator: "\n")
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  private static func name(_ line: TeamLine) -> String {
    line.rank.map { "#\($0) \(line.team.name)" } ?? line.team.name
  }

  static func table(header: [String], rows: [[String]]) -> [String] {
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
