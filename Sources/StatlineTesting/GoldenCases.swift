import Foundation
import StatlineCore
import StatlineFixtures
import Testing

/// Golden-file tests for test targets: one parameterized test per plugin runs every case.
///
/// A plugin's test target builds its cases with its own plugin only
/// (`GoldenCases([NCAASource.plugin])`), so it links no other plugin and no app code.
///
/// Record mode: `STATLINE_RECORD_GOLDENS=1 swift test` rewrites the goldens instead of comparing
/// (never set in CI; review the diff before committing).
public struct GoldenCases: Sendable {
  public static let recordVariable = "STATLINE_RECORD_GOLDENS"

  /// The suite over the package's fixtures and the given plugins.
  public let suite: FixtureSuite

  public init(_ plugins: [SourcePlugin]) {
    do {
      suite = FixtureSuite(root: PackageRoot.url, registry: try SourceRegistry(plugins: plugins))
    } catch {
      fatalError("the plugins \(plugins.map(\.id)) do not load: \(error)")
    }
  }

  public static var isRecording: Bool {
    ProcessInfo.processInfo.environment[recordVariable].map { !$0.isEmpty && $0 != "0" } ?? false
  }

  /// Every case of one plugin folder.
  public func cases(plugin: String) -> [FixtureCase] { suite.cases(plugin: plugin) }

  /// Records an issue unless the case matches its golden. A skipped real-page case (no
  /// `STATLINE_REAL_FIXTURES`) prints a visible note.
  public func expectPasses(_ fixture: FixtureCase, sourceLocation: SourceLocation = #_sourceLocation) {
    switch suite.run(fixture, record: Self.isRecording) {
    case .passed: break
    case .recorded:
      print("note: recorded the golden of \(fixture.id); review it before committing")
    case .skipped(let note):
      print("note: skipped \(fixture.id): \(note)")
    case .failed(let message):
      Issue.record("\(fixture.id): \(message)", sourceLocation: sourceLocation)
    }
  }
}

extension FixtureCase: CustomTestStringConvertible {
  public var testDescription: String { id }
}
