import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlineServer

extension DevicesCommand {
  /// `statline devices import FILE`: devices from another push system (or a test's thousands) in
  /// one go, one JSON object per line as `POST /v1/devices` takes it, checked by the same rules.
  /// Every line is checked before any is stored: a bad line is an error naming its number and
  /// field, and the store is left as it was.
  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract:
        "Register the devices of a JSON-lines file (each line a POST /v1/devices body), all checked before any is stored."
    )

    @Argument(help: ArgumentHelp("The file, one device per line (`-`: standard input).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
    var store: String = "statline.sqlite"

    func run() async throws {
      do throws(StatlineError) {
        let devices = try Self.devices(in: try Self.read(file), named: file, at: Date())
        let (created, changed) = try await DevicesCommand.withRegistry(store) { registry in
          var created = 0
          for device in devices where try await registry.upsertDevice(device).created { created += 1 }
          return (created, devices.count - created)
        }
        // The store as its description names it: a PostgreSQL URL without its password.
        let named = try StoreLocation(store).description
        Console.out(
          "imported \(devices.count) device\(devices.count == 1 ? "" : "s") into \(named): \(created) new, \(changed) registered again"
        )
      } catch {
        throw fail(error)
      }
    }

    static func read(_ file: String) throws(StatlineError) -> Data {
      if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
      do {
        return try Data(contentsOf: URL(fileURLWithPath: file))
      } catch {
        throw StatlineError(.io, "cannot read the devices file \(file): \(error.localizedDescription)")
      }
    }

    /// The devices of `data`'s lines (blank lines skipped), each registered at `time`; the first
    /// bad line is an error naming it.
    static func devices(in data: Data, named file: String, at time: Date) throws(StatlineError) -> [Device] {
      let teams = try BuiltinPlugins.teamRegistry()
      var devices: [Device] = []
      for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
        guard line.count <= DeviceInput.maximumBytes else {
          throw StatlineError(
            .configuration,
            "\(file):\(index + 1): the device is over \(DeviceInput.maximumBytes) bytes; nothing was imported")
        }
        do {
          devices.append(try DeviceInput.device(from: Data(line), teams: teams, at: time))
        } catch {
          throw StatlineError(
            .configuration, "\(file):\(index + 1): \(error.detail); nothing was imported",
            hint: "each line is one device as POST /v1/devices takes it (docs/api.md, \"Devices\")")
        }
      }
      guard !devices.isEmpty else {
        throw StatlineError(.configuration, "\(file) holds no device", hint: "one JSON object per line")
      }
      return devices
    }
  }
}
