import Foundation
import StatlineCore
import StatlineEngine

/// The demo's live scoreboard: the latest state of each game, a feed of scores and finals from the
/// store's event log (as the sinks deliver them), and the read API's URL.
final class DemoBoard: @unchecked Sendable {
  private let lock = NSLock()
  private var games: [String: Game] = [:]
  private var order: [String] = []
  private var feed: [String] = []
  private var counts = (polls: 0, stored: 0, unchanged: 0, failed: 0)

  func count(_ report: PollReport) {
    lock.withLock {
      counts.polls += 1
      switch report.outcome {
      case .stored: counts.stored += 1
      case .unchanged: counts.unchanged += 1
      case .failed, .blocked, .absent: counts.failed += 1
      case .new: break
      }
    }
  }

  /// The store's canonical games, in the order they first appeared.
  func show(_ stored: [Game]) {
    lock.withLock {
      for game in stored.sorted(by: { ($0.startTime ?? "", $0.id) < ($1.startTime ?? "", $1.id) }) {
        if games[game.id] == nil { order.append(game.id) }
        games[game.id] = game
      }
    }
  }

  func goal(_ line: String) { lock.withLock { feed.append(line) } }

  /// The read API's scoreboard URL, shown under the title.
  private var api: String?
  func serving(_ url: String) { lock.withLock { api = url } }

  func render(clock: String, speed: Double) -> String {
    lock.withLock {
      var lines = [
        "Statline demo — a scripted game day on a loopback server, \(Int(speed))× speed, game time \(clock)",
        api.map { "read API: curl \($0)" } ?? "",
        "",
      ]
      for id in order {
        guard let game = games[id] else { continue }
        let score = "\(game.away.score.map(String.init) ?? "-") - \(game.home.score.map(String.init) ?? "-")"
        var state = game.status.rawValue.uppercased()
        if game.status == .live {
          state = [game.periodLabel, game.clock].compactMap { $0 }.joined(separator: " ")
        } else if let label = game.periodLabel, game.status == .final {
          state = label.uppercased()
        }
        lines.append(
          "  \(game.away.team.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(score.padding(toLength: 8, withPad: " ", startingAt: 0)) "
            + "\(game.home.team.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(state.padding(toLength: 16, withPad: " ", startingAt: 0)) \(game.sport.rawValue)"
        )
      }
      lines.append("")
      lines.append(
        "polls \(counts.polls): stored \(counts.stored), unchanged \(counts.unchanged) (304 or same bytes), failed \(counts.failed)"
      )
      lines.append("")
      lines.append("goals, baskets, runs and finals, from the store's event log (statline events tail):")
      lines += feed.suffix(8).map { "  \($0)" }
      return lines.joined(separator: "\n")
    }
  }

  var finishedGames: [Game] { lock.withLock { order.compactMap { games[$0] } } }
}
