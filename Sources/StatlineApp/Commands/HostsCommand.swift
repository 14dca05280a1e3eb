import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlinePostgres

/// `statline hosts resume HOST`: lifts the pause a site's `Retry-After` put on a host for every
/// worker of a PostgreSQL store (the pause is the cluster's, kept in the store). On SQLite a
/// pause lives in the running job's memory and lasts at most the retry policy's cap (30 s).
public struct HostsCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "hosts", abstract: "Act on the hosts the job asks (see them with `statline status`).",
    subcommands: [Resume.self])

  struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Lift a host's Retry-After pause for every worker: its next request may start now.")

    @Argument(help: "The host, as `statline status` names it (stats.ncaa.org).")
    var host: String

    @Option(help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
    var store: String = "statline.sqlite"

    func run() async throws {
      do throws(StatlineError) {
        let location = try StoreLocation(store)
        guard case .postgres(let postgres) = location else {
          Console.out(
            "\(host): on a SQLite store a pause lives in the running job's memory and ends within the retry policy's cap (30 s); nothing to lift"
          )
          return
        }
        let opened = try await PostgresStore.open(postgres)
        let lifted: Bool
        do {
          lifted = try await opened.resume(host: host)
          await opened.close()
        } catch let error {
          await opened.close()
          throw StatlineError.wrapping(error, location: PostgresLocation.redacted(store))
        }
        Console.out(
          lifted
            ? "\(host): pause lifted; every worker may ask it again now"
            : "\(host): not paused (nothing to lift); `statline status --store …` lists the hosts")
      } catch {
        throw fail(error)
      }
    }
  }
}
