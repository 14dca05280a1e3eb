import ArgumentParser
import Foundation
import StatlineCLI
import StatlineLoopback
import StatlinePush

extension BenchCommand {
  /// The loopback APNs on its own, for a push benchmark whose sender (Statline's, or a peer's
  /// such as aioapns) runs in another process: it makes a signing key and a CA, writes the key's
  /// `.p8`, the CA and the port to files, counts what it accepts, and stops on SIGTERM or SIGINT.
  struct APNsFake: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "apns-fake",
      abstract: "Run the loopback APNs alone (for `bench push --apns` and scripts/peers' aioapns row).")

    @Option(help: ArgumentHelp("Where to write the port it listens on.", valueName: "file"))
    var portFile: String

    @Option(help: ArgumentHelp("Where to write its CA certificate (PEM).", valueName: "file"))
    var caFile: String

    @Option(help: ArgumentHelp("Where to write the signing key it knows (a .p8, PEM).", valueName: "file"))
    var keyFile: String

    @Option(help: "The key id it knows (10 letters and digits).")
    var keyId = "BENCH12345"

    @Option(help: "The team id it knows.")
    var teamId = "TEAM123456"

    @Option(help: "The topic it allows.")
    var topic = "com.example.scores"

    func run() async throws {
      let key = APNsSigningKey(generatedWithKeyId: keyId, teamId: teamId)
      let fake = try await LoopbackAPNs.start(
        keys: [keyId: (teamId, key.publicKeyPEM)], topics: [topic], keepsAccepted: false)
      try key.privateKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
      try fake.certificates.authorityPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
      try String(fake.port).write(toFile: portFile, atomically: true, encoding: .utf8)
      Console.error("statline bench apns-fake: listening on \(fake.baseURL)")
      await BenchCommand.untilTerminated()
      Console.error("statline bench apns-fake: \(fake.acceptedCount) pushes accepted")
      await fake.stop()
    }
  }
}
