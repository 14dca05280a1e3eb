import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore

/// `statline check --config FILE`: the configuration read and validated as `run` reads it, every
/// target resolved to its plugin and parser, and the plan printed; nothing is fetched and no
/// store is opened.
public struct CheckCommand: ParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Validate a job configuration and print the plan (targets, parsers, cadences, hosts, sinks, store).",
    discussion: """
      Reads the configuration as `statline run` would, resolves every target to its plugin and \
      parser, checks each webhook's secret variable and the store's location, and prints what \
      the job would do. Fetches nothing and opens no store. Exit 0 when it is valid; otherwise \
      each problem is printed on stderr and the exit status is 64.
      """)

  @OptionGroup var job: JobOptions

  public func run() throws {
    let config: JobConfig
    let registry: SourceRegistry
    do {
      config = try job.load()
      registry = try BuiltinPlugins.registry(config.pluginSettings)
    } catch {
      throw fail(error)
    }
    let plan = JobPlan(config: config, registry: registry, store: job.store)
    if !plan.problems.isEmpty {
      for problem in plan.problems { Console.error("statline check: \(problem)") }
      Console.error("statline check: \(job.config) has \(plan.problems.count) problem(s); nothing was fetched")
      throw ExitCode(ExitStatus.usage)
    }
    Console.out(plan.render(file: job.config))
  }
}
