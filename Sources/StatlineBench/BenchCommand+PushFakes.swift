import ArgumentParser
import Foundation
import StatlineCLI
import StatlineLoopback

extension BenchCommand {
  /// The loopback APNs and FCM together, for a check whose workers run in other processes
  /// (`scripts/cluster-check`): each on its own port with certificates made at start, a signing
  /// key and a service account made for them, and one log of every push they accept
  /// (`LoopbackPushLog`), from which the check counts deliveries.
  struct PushFakes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "push-fakes",
      abstract:
        "Run the loopback APNs and FCM with a log of what they accept, and write the push: configuration that sends to them."
    )

    @Option(
      help: ArgumentHelp(
        "Where to write push.yml (the push: block), the key, the service account, the CAs and push.log.",
        valueName: "folder"))
    var folder: String

    @Option(help: "The topic (bundle id) APNs allows.")
    var topic = "com.example.scores"

    @Option(help: "The Firebase project FCM serves.")
    var project = "example-scores"

    @Option(help: "The senders' deadline per request, as push.yml sets it (`timeout`).")
    var timeout = "10s"

    func run() async throws {
      let folder = URL(fileURLWithPath: folder)
      let pair = try await LoopbackPushPair.start(folder: folder, topic: topic, project: project)
      try pair.yaml(timeout: timeout).write(
        to: folder.appendingPathComponent("push.yml"), atomically: true, encoding: .utf8)
      Console.error(
        "statline bench push-fakes: APNs on \(pair.apns.baseURL), FCM on \(pair.fcm.baseURL); \(folder.path)/push.yml")
      await BenchCommand.untilTerminated()
      Console.error(
        "statline bench push-fakes: \(pair.apns.acceptedCount) APNs pushes and \(pair.fcm.acceptedCount) FCM messages accepted"
      )
      await pair.stop()
    }
  }

  /// Returns on SIGTERM or SIGINT (a fake run until the script that started it is done).
  static func untilTerminated() async {
    let (stop, continuation) = AsyncStream<Void>.makeStream()
    let sources = [SIGTERM, SIGINT].map { signal in
      Foundation.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal)
      source.setEventHandler { continuation.finish() }
      source.resume()
      return source
    }
    for await _ in stop {}
    for source in sources { source.cancel() }
  }
}
