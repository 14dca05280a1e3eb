import Foundation
import StatlineCore

/// Discovers every fixture case under `Fixtures/`, runs each through parse → normalize →
/// validate, and compares the result with its golden byte for byte (or records it).
///
/// The same code backs `statline fixtures verify|record` and the golden tests.
public struct FixtureSuite: Sendable {
  /// The package root: the folder holding `Fixtures/` and `Plugins/`.
  public let root: URL
  public let real: RealFixtures
  public let registry: SourceRegistry

  public init(root: URL, real: RealFixtures = .fromEnvironment(), registry: SourceRegistry) {
    self.root = root
    self.real = real
    self.registry = registry
  }

  public var fixturesFolder: URL { root.appendingPathComponent("Fixtures") }

  /// The outcome of one case.
  public enum Outcome: Sendable, Equatable {
    case passed
    case recorded
    case skipped(String)
    case failed(String)
  }

  /// Every case, sorted by id; optionally only one plugin's.
  public func cases(plugin: String? = nil) -> [FixtureCase] {
    var result: [FixtureCase] = []
    for pluginName in subfolders(fixturesFolder) where plugin == nil || pluginName == plugin {
      let pluginFolder = fixturesFolder.appendingPathComponent(pluginName)
      for parser in subfolders(pluginFolder) {
        let parserFolder = pluginFolder.appendingPathComponent(parser)
        for name in subfolders(parserFolder) {
          result.append(
            FixtureCase(
              plugin: pluginName, parser: parser, name: name,
              folder: parserFolder.appendingPathComponent(name)))
        }
      }
    }
    return result.sorted { $0.id < $1.id }
  }

  /// Runs one case; with `record`, rewrites its golden instead of comparing.
  public func run(_ fixture: FixtureCase, record: Bool = false) -> Outcome {
    let page: Page
    switch loadPage(fixture) {
    case .success(let loaded): page = loaded
    case .failure(.skipped(let note)): return .skipped(note)
    case .failure(.failed(let message)): return .failed(message)
    }
    guard let entry = registry.parser(id: fixture.parser) else {
      return .failed("no registered parser is named '\(fixture.parser)' (the case's folder name)")
    }
    // A page with a URL must be claimed by it; a saved file without one, by its content.
    let claimed = page.url.map { entry.claims(url: $0) || entry.urlPatterns.isEmpty } ?? entry.sniffs(page)
    guard claimed else {
      return .failed(
        page.url.map { "the case URL \($0) is not claimed by parser '\(entry.id)'" }
          ?? "the case has no URL and parser '\(entry.id)' does not recognise the page's content")
    }
    let actual: String
    let golden: URL
    let other: URL
    do {
      let batch = try PagePipeline.run(page, with: entry)
      actual = try batch.jsonString()
      (golden, other) = (fixture.batchGoldenFile, fixture.errorGoldenFile)
    } catch let error as StatlineError {
      actual = error.description + "\n"
      (golden, other) = (fixture.errorGoldenFile, fixture.batchGoldenFile)
    } catch {
      return .failed("could not encode the batch: \(error)")
    }
    let manager = FileManager.default
    if record {
      do {
        try Data(actual.utf8).write(to: golden)
        if manager.fileExists(atPath: other.path) { try manager.removeItem(at: other) }
        return .recorded
      } catch {
        return .failed("cannot write \(golden.path): \(error.localizedDescription)")
      }
    }
    guard let expected = try? Data(contentsOf: golden) else {
      if manager.fileExists(atPath: other.path) {
        let wanted = other.lastPathComponent == FixtureCase.errorGolden ? "an error" : "a batch"
        return .failed("the golden expects \(wanted), but the pipeline gave:\n\(actual)")
      }
      return .failed("the case has no golden; record one with `statline fixtures record` and review it")
    }
    if expected == Data(actual.utf8) { return .passed }
    return .failed(GoldenDiff.describe(expected: String(decoding: expected, as: UTF8.self), actual: actual))
  }

  /// A case's page (a real one only where the real pages are available), or nil.
  public func page(_ fixture: FixtureCase) -> Page? { try? loadPage(fixture).get() }

  enum LoadFailure: Error {
    case skipped(String)
    case failed(String)
  }

  func loadPage(_ fixture: FixtureCase) -> Result<Page, LoadFailure> {
    guard fixture.isReal else {
      do {
        let page = try PageLoader.load(fixture.folder.path)
        guard page.url != nil else { return .failure(.failed("the case has no request.json with the page URL")) }
        return .success(page)
      } catch {
        return .failure(.failed("\(error)"))
      }
    }
    let spec: RealPageSpec
    do {
      spec = try JSONDecoder().decode(RealPageSpec.self, from: Data(contentsOf: fixture.realPageSpecFile))
    } catch {
      return .failure(.failed("cannot read \(fixture.realPageSpecFile.path): \(error)"))
    }
    guard let folder = real.folder else {
      return .failure(
        .skipped("\(RealFixtures.variable) is not set, so the real page \(spec.page) was not read"))
    }
    let file = folder.appendingPathComponent(spec.page)
    guard let body = try? Data(contentsOf: file) else {
      return .failure(.failed("the real page \(file.path) is missing (\(RealFixtures.variable)=\(folder.path))"))
    }
    // Named by its path in the real folder, so an error golden is the same on every machine.
    return .success(
      Page(url: spec.url, status: spec.status ?? 200, headers: spec.headers ?? [:], body: body, file: spec.page))
  }

  /// What the fixture rules of architecture.md#modules and #fixtures find missing: plugin folders absent from the
  /// built-in list or without fixtures, and real pages a parser claims but no case reads.
  public func coverageProblems() -> [String] {
    var problems: [String] = []
    let listed = Set(registry.plugins.map(\.folder))
    let folders = subfolders(root.appendingPathComponent("Plugins"))
    for folder in folders where !listed.contains(folder) {
      problems.append("Plugins/\(folder) is not in the built-in plugin list (BuiltinPlugins.all)")
    }
    for plugin in registry.plugins {
      if !folders.contains(plugin.folder) {
        problems.append("plugin '\(plugin.id)' names the folder Plugins/\(plugin.folder), which does not exist")
      }
      if cases(plugin: plugin.folder).isEmpty {
        problems.append("plugin '\(plugin.id)' has no fixture cases under Fixtures/\(plugin.folder)")
      }
    }
    guard let folder = real.folder else { return problems }
    let covered = Set(
      cases().filter(\.isReal).compactMap { fixture in
        try? JSONDecoder().decode(RealPageSpec.self, from: Data(contentsOf: fixture.realPageSpecFile)).page
      })
    for relative in real.pages() where !covered.contains(relative) {
      guard let body = try? Data(contentsOf: folder.appendingPathComponent(relative)) else { continue }
      let page = Page(body: body, file: relative)
      let claimants = registry.parsers.filter { $0.sniffs(page) }.map(\.id)
      if !claimants.isEmpty {
        problems.append(
          "the real page \(relative) is claimed by \(claimants.joined(separator: ", ")) but has no golden case")
      }
    }
    return problems
  }

  private func subfolders(_ url: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { name in
      var isDirectory: ObjCBool = false
      return !name.hasPrefix(".")
        && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }.sorted()
  }
}
