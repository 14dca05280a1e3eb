import ArgumentParser
import Foundation
import Logging
import StatlineCLI
import StatlineCore
import StatlinePostgres

/// `statline status`: the schedule as the store holds it.
public struct StatusCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "status", abstract: "Show targets, when they are due, their last result and host breakers.")

  @Option(name: .long, help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
  var store = "statline.sqlite"

  @Flag(name: .long, help: "Include retired targets.")
  var all = false

  public func run() async throws {
    do {
      let opened = try await StoreLocation(store).openForCommand(
        hint: "run `statline run` or `statline once` first, or pass --store")
      let now = Date()
      var text = Self.render(try await opened.targets(), hosts: try await opened.hosts(), now: now, all: all)
      if let cluster = opened as? any ClusterStore {
        text = Self.workers(try await cluster.workers(at: now), now: now) + "\n\n" + text
      }
      let sinks = try await Self.sinks(opened)
      if !sinks.isEmpty { text += "\n\n" + sinks }
      let location = try StoreLocation(store)
      var quiet = Logger(label: "statline.status")
      quiet.logLevel = .critical
      if let push = await DeviceService.pushStatus(store: location, reader: opened, logger: quiet) {
        let status = try await PushStatus.read(from: push, at: now)
        if status.devices.values.reduce(0, +) > 0 || status.pending > 0 { text += "\n\n" + Self.push(status) }
      }
      let conflicts = Self.conflicts(try await opened.conflictedGames(limit: 20))
      if !conflicts.isEmpty { text += "\n\n" + conflicts }
      Console.out(text)
    } catch {
      throw fail(StatlineError.wrapping(error, location: PostgresLocation.redacted(store)))
    }
  }

  static func render(_ states: [TargetState], hosts: [HostHealth], now: Date, all: Bool) -> String {
    let shown = states.filter { all || !$0.isRetired }.sorted {
      ($0.nextDue ?? .distantFuture, $0.id) < ($1.nextDue ?? .distantFuture, $1.id)
    }
    let rows = shown.map { state -> [String] in
      let games = state.games.map { game in
        "\(game.away.team.name) \(game.away.score.map(String.init) ?? "")-\(game.home.score.map(String.init) ?? "") \(game.home.team.name) (\(game.status.rawValue))"
      }
      return [
        state.nextDue.map { relative($0, from: now) } ?? "retired", state.outcome.rawValue,
        state.consecutiveFailures > 0 ? String(state.consecutiveFailures) : "",
        state.lastPolled.map { relative($0, from: now) } ?? "never", state.target.role.rawValue, state.target.url,
        state.lastError ?? (state.partial.map { "partial: \($0)" } ?? games.joined(separator: "; ")),
      ]
    }
    let retired = states.filter(\.isRetired).count
    let live = states.filter { !$0.isRetired && $0.isLive }.count
    let partial = states.filter { !$0.isRetired && $0.partial != nil }.count
    var lines = [
      "\(states.count - retired) targets (\(live) live), \(retired) retired"
        + (partial > 0 ? "; \(partial) stored partially (statline captures list)" : "")
    ]
    lines += BatchTable.table(header: ["NEXT", "LAST", "FAILS", "POLLED", "ROLE", "URL", "GAMES / ERROR"], rows: rows)
    if !hosts.isEmpty {
      lines.append("")
      lines += BatchTable.table(
        header: ["HOST", "BREAKER", "FAILURES", "OPEN UNTIL", "PAUSED UNTIL"],
        rows: hosts.map {
          [
            $0.host, $0.breaker.rawValue, String($0.failures), $0.openUntil.map { relative($0, from: now) } ?? "",
            $0.pausedUntil.map { relative($0, from: now) } ?? "",
          ]
        })
      if let paused = hosts.first(where: { $0.pausedUntil != nil }) {
        lines.append("a paused host waits out its site's Retry-After; to lift it: statline hosts resume \(paused.host)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Games whose sources' finals disagree: the final shown, and the other.
  static func conflicts(_ games: [Game]) -> String {
    let rows = games.compactMap { game in
      game.conflict.map { [game.id, "\($0.keptScore) (\($0.kept))", "\($0.otherScore) (\($0.other))"] }
    }
    guard !rows.isEmpty else { return "" }
    return
      (["\(rows.count) games whose sources disagree on the final (the first is shown):"]
      + BatchTable.table(header: ["GAME", "FINAL SHOWN", "OTHER FINAL"], rows: rows)).joined(separator: "\n")
  }

  /// The workers sharing the store: a worker silent for 30 s (two beats) is presumed dead (its leases
  /// lapse on their own).
  static func workers(_ workers: [WorkerInfo], now: Date) -> String {
    let rows = workers.map { worker -> [String] in
      let state =
        worker.stopped != nil
        ? "stopped" : now.timeIntervalSince(worker.heartbeat) > 30 ? "silent (dead?)" : "running"
      return [
        worker.id, worker.host, String(worker.pid), relative(worker.started, from: now),
        relative(worker.heartbeat, from: now), String(worker.leases), state,
      ]
    }
    let running = workers.filter { $0.stopped == nil && now.timeIntervalSince($0.heartbeat) <= 30 }.count
    return
      (["\(workers.count) workers (\(running) running)"]
      + BatchTable.table(header: ["WORKER", "HOST", "PID", "STARTED", "HEARTBEAT", "LEASES", "STATE"], rows: rows))
      .joined(separator: "\n")
  }

  /// The devices by kind and state, and the push outbox.
  static func push(_ status: PushStatus) -> String {
    let kinds = Device.Kind.allCases.map { "\($0.rawValue) \(status.devices[$0.rawValue] ?? 0)" }.joined(
      separator: ", ")
    return """
      devices: \(kinds); \(status.disabled) disabled, \(status.quarantined) quarantined (statline devices list)
      push outbox: \(status.pending) alerts to send (\(status.leased) being sent, \(status.backingOff) backing off)
      """
        + status.suspended.map { "\n  \($0.state) \($0.kind) \($0.id) \($0.token) since \($0.since): \($0.why)" }
        .joined()
  }

  /// Each sink's delivery: its cursor, the events not yet delivered, its dead letters.
  static func sinks(_ store: any JobStore) async throws -> String {
    let cursors = try await store.sinkCursors()
    let letters = try await store.deadLetters(sink: nil)
    let names = Set(cursors.keys).union(letters.map(\.sink)).sorted()
    guard !names.isEmpty else { return "" }
    let last = try await store.lastEventSequence()
    let rows = names.map { name in
      let cursor = cursors[name] ?? 0
      return [
        name, String(cursor), String(last - cursor), String(letters.filter { $0.sink == name }.count),
      ]
    }
    return
      (["events: \(last) in the store"]
      + BatchTable.table(header: ["SINK", "DELIVERED TO", "BACKLOG", "DEAD LETTERS"], rows: rows)).joined(
        separator: "\n")
  }

  /// "in 25s", "3m ago".
  static func relative(_ date: Date, from now: Date) -> String {
    let seconds = Int(date.timeIntervalSince(now).rounded())
    let magnitude = abs(seconds)
    if magnitude >= 48 * 3600 {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
      return formatter.string(from: date) + "Z"
    }
    let text =
      magnitude < 120 ? "\(magnitude)s" : magnitude < 7200 ? "\(magnitude / 60)m" : "\(magnitude / 3600)h"
    return seconds >= 0 ? "in \(text)" : "\(text) ago"
  }
}
