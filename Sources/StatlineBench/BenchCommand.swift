import ArgumentParser

/// `statline bench`: the benchmarks of architecture.md#quality-bars (never timed tests).
public struct BenchCommand: ParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "bench", abstract: "Run benchmarks.",
    subcommands: [
      Parse.self, Parser.self, Fetch.self, Cycle.self, Change.self, Store.self, Events.self, Serve.self,
      APIDay.self, Poll.self, Claim.self, Latency.self, Push.self, APNsFake.self, PushFakes.self, Preload.self,
      PreloadClientCommand.self,
    ])
}
