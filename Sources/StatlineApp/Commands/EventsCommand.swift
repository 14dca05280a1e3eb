import ArgumentParser
import Foundation
import Logging
import StatlineCLI
import StatlineCore
import StatlineEvents
import StatlinePostgres

/// `statline events`: the store's change events, and the sinks' dead letters.
public struct EventsCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "events",
    abstract: "Read the change events the job derived, and the deliveries that failed.",
    subcommands: [EventsTailCommand.self, EventsFailedCommand.self, EventsRedeliverCommand.self])
}

/// `statline events tail`: events as JSON lines, the same JSON the `jsonl` sink writes.
struct EventsTailCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tail", abstract: "Print events as JSON lines (the last 10, or those after --since).")

  @OptionGroup var options: StoreOptions

  @Option(name: .long, help: "Print the events after this sequence number (0: all of them).")
  var since: Int64?

  @Flag(name: .long, help: "Keep printing new events as the job stores them (until interrupted).")
  var follow = false

  func run() async throws {
    do {
      let store = try await options.open()
      var cursor: Int64
      if let since { cursor = since } else { cursor = max(0, try await store.lastEventSequence() - 10) }
      repeat {
        let events = try await store.events(since: cursor, limit: 500)
        for event in events { Console.out(String(decoding: try event.jsonLine(), as: UTF8.self)) }
        cursor = events.last?.sequence ?? cursor
        if events.isEmpty && follow { try await Task.sleep(for: .milliseconds(500)) }
        if events.count < 500 && !follow { break }
      } while true
    } catch let error as StatlineError {
      throw fail(error)
    } catch is CancellationError {
      return
    }
  }
}

/// `statline events failed`: the dead letters.
struct EventsFailedCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "failed", abstract: "List the events a sink gave up on (dead letters).")

  @OptionGroup var options: StoreOptions

  @Option(name: .long, help: "Only this sink's.")
  var sink: String?

  func run() async throws {
    do {
      let letters = try await options.open().deadLetters(sink: sink)
      Console.out(Self.render(letters))
    } catch {
      throw fail(StatlineError.wrapping(error, location: PostgresLocation.redacted(options.store ?? options.config)))
    }
  }

  static func render(_ letters: [DeadLetter]) -> String {
    guard !letters.isEmpty else { return "no failed deliveries" }
    let rows = letters.map { letter in
      [
        letter.sink, letter.event.id, letter.event.type.rawValue, letter.event.gameId, String(letter.attempts),
        ISO8601DateFormatter().string(from: letter.failedAt), letter.error,
      ]
    }
    return
      (BatchTable.table(header: ["SINK", "EVENT", "TYPE", "GAME", "TRIES", "FAILED", "ERROR"], rows: rows)
      + ["\(letters.count) failed; `statline events redeliver ID` or `--all` sends them again"]).joined(
        separator: "\n")
  }
}

/// `statline events redeliver`: dead letters sent again through the configured sinks.
struct EventsRedeliverCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "redeliver", abstract: "Send dead letters again (one event id, or --all) through the configured sinks."
  )

  @OptionGroup var options: StoreOptions

  @Argument(help: "The event id (evt_12 or 12).")
  var id: String?

  @Flag(name: .long, help: "Every dead letter.")
  var all = false

  @Option(name: .long, help: "Only this sink's.")
  var sink: String?

  func validate() throws {
    guard (id == nil) != !all else { throw ValidationError("give one event id, or --all") }
    if let id, Self.sequence(id) == nil { throw ValidationError("'\(id)' is not an event id (evt_12 or 12)") }
  }

  static func sequence(_ id: String) -> Int64? { Int64(id.hasPrefix("evt_") ? String(id.dropFirst(4)) : id) }

  func run() async throws {
    let client = HTTPClientHandle()
    do {
      let config = try JobConfigReader.load(file: options.config)
      let store = try await options.open()
      let sinks = try EventSinks.build(
        config.sinks, client: client.client, userAgent: config.politeness.userAgent, now: Date.init)
      let chosen = sinks.filter { sink == nil || $0.name == sink }
      guard !chosen.isEmpty else {
        throw StatlineError(
          .configuration, "no configured sink is named '\(sink ?? "")'",
          hint: "sinks: \(sinks.map(\.name).joined(separator: ", "))")
      }
      let delivery = EventDelivery(
        log: store, sinks: chosen, clock: ContinuousClock(), logger: Logger(label: "statline"))
      var delivered = 0
      var asked = 0
      for sink in chosen {
        let letters = try await store.deadLetters(sink: sink.name).filter {
          id.flatMap(Self.sequence) == nil || $0.event.sequence == id.flatMap(Self.sequence)
        }
        asked += letters.count
        delivered += try await delivery.redeliver(sink, sequence: id.flatMap(Self.sequence))
      }
      if let id, asked == 0 {
        throw StatlineError(
          .configuration,
          "\(id) is not a dead letter\(sink.map { " of sink \($0)" } ?? ""): nothing was sent",
          hint: "`statline events failed` lists the dead letters")
      }
      await client.shutdown()
      Console.out("redelivered \(delivered) of \(asked)")
      if delivered < asked { throw ExitCode(1) }
    } catch let error as StatlineError {
      await client.shutdown()
      throw fail(error)
    }
  }
}
