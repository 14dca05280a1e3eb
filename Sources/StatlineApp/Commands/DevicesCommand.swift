import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlineServer

/// `statline devices`: the devices a store holds (by kind), and the hash an API key is
/// configured as (`api.deviceKeys`, `serve --device-key-hash`).
public struct DevicesCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "devices", abstract: "The devices registered through /v1/devices, and the API keys that write them.",
    subcommands: [Count.self, HashKey.self], defaultSubcommand: Count.self)

  struct Count: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Count the store's devices by kind.")

    @Option(help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
    var store: String = "statline.sqlite"

    func run() async throws {
      do throws(StatlineError) {
        let location = try StoreLocation(store)
        let (registry, close) = try await location.openDevices()
        let counts: [Device.Kind: Int]
        do {
          counts = try await registry.deviceCounts()
          await close()
        } catch let error {
          await close()
          throw StatlineError.wrapping(error, location: location.description)
        }
        let total = counts.values.reduce(0, +)
        Console.out("\(total) device\(total == 1 ? "" : "s")")
        for kind in Device.Kind.allCases { Console.out("  \(kind.rawValue): \(counts[kind] ?? 0)") }
      } catch {
        throw fail(error)
      }
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
