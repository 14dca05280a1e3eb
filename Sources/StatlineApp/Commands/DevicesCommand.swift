import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlineServer

extension Device.Suspension.Kind: ExpressibleByArgument {}

/// `statline devices`: the devices a store holds (by kind and state), the suspended ones with why, and the hash an API key is
/// configured as (`api.deviceKeys`, `serve --device-key-hash`).
public struct DevicesCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "devices", abstract: "The devices registered through /v1/devices, and the API keys that write them.",
    subcommands: [Count.self, List.self, Import.self, HashKey.self], defaultSubcommand: Count.self)

  /// Runs `body` on the store's devices, closing them after; a store error names the store.
  static func withRegistry<R>(_ store: String, _ body: (any DeviceRegistry) async throws -> R)
    async throws(StatlineError) -> R
  {
    let location = try StoreLocation(store)
    let (registry, close) = try await location.openDevices()
    do {
      let result = try await body(registry)
      await close()
      return result
    } catch let error {
      await close()
      throw StatlineError.wrapping(error, location: location.description)
    }
  }

  struct Count: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Count the store's devices by kind.")

    @Option(help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
    var store: String = "statline.sqlite"

    func run() async throws {
      do throws(StatlineError) {
        let (counts, suspended) = try await DevicesCommand.withRegistry(store) { registry in
          (try await registry.deviceCounts(), try await registry.suspendedCounts())
        }
        let total = counts.values.reduce(0, +)
        Console.out("\(total) device\(total == 1 ? "" : "s")")
        for kind in Device.Kind.allCases { Console.out("  \(kind.rawValue): \(counts[kind] ?? 0)") }
        for state in Device.Suspension.Kind.allCases {
          Console.out("  \(state.rawValue): \(suspended[state] ?? 0)")
        }
      } catch {
        throw fail(error)
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "List the devices that get no pushes (disabled by APNs' 410, quarantined for a token not this app's), with why."
    )

    @Option(help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
    var store: String = "statline.sqlite"

    @Option(help: ArgumentHelp("Only these: disabled or quarantined.", valueName: "state"))
    var state: Device.Suspension.Kind?

    @Option(help: "At most this many.")
    var limit = 100

    func run() async throws {
      do throws(StatlineError) {
        let (state, limit) = (state, limit)
        let devices = try await DevicesCommand.withRegistry(store) { registry in
          try await Self.suspended(registry, state: state, limit: limit)
        }
        guard !devices.isEmpty else {
          Console.out("no \(state?.rawValue ?? "suspended") devices: every device gets pushes")
          return
        }
        Console.out(
          BatchTable.table(
            header: ["DEVICE", "TOKEN", "STATE", "SINCE", "WHY"],
            rows: devices.map { device in
              [
                device.id, device.shownToken, device.suspended?.kind.rawValue ?? "", device.suspended?.since ?? "",
                device.suspended?.why ?? "",
              ]
            }
          ).joined(separator: "\n"))
      } catch {
        throw fail(error)
      }
    }

    /// The suspended devices in id order (of `state`, when given), at most `limit`.
    static func suspended(_ registry: any DeviceRegistry, state: Device.Suspension.Kind?, limit: Int) async throws
      -> [Device]
    {
      var found: [Device] = []
      var after: String?
      while found.count < limit {
        let page = try await registry.suspendedDevices(after: after, limit: 500)
        found += page.filter { state == nil || $0.suspended?.kind == state }
        guard page.count == 500, let last = page.last else { break }
        after = last.id
      }
      return Array(found.prefix(limit))
    }
  }

  struct HashKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "hash-key",
      abstract: "Print the hash an API key is configured as (the key is read from standard input, never an argument).")

    func run() async throws {
      guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw fail(
          StatlineError(
            .configuration, "no key on standard input",
            hint: "for example: openssl rand -hex 32 | tee key.txt | statline devices hash-key"))
      }
      Console.out(DeviceKeys.hash(line))
    }
  }
}
