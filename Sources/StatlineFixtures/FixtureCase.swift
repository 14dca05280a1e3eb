import Foundation

/// One golden-file case: `Fixtures/<Plugin>/<parser>/<case>/`.
///
/// A case holds either a page of its own (`page.<ext>` + `request.json`, written by hand) or a
/// `case.json` naming a real page in the shared folder, and its golden: `normalized.golden.json`
/// for a page that must parse, `error.golden.txt` for one that must fail.
public struct FixtureCase: Sendable, Hashable, CustomStringConvertible {
  public let plugin: String
  public let parser: String
  public let name: String
  public let folder: URL

  public var id: String { "\(plugin)/\(parser)/\(name)" }
  public var description: String { id }

  public static let batchGolden = "normalized.golden.json"
  public static let errorGolden = "error.golden.txt"
  public static let realPageSpec = "case.json"

  public var batchGoldenFile: URL { folder.appendingPathComponent(Self.batchGolden) }
  public var errorGoldenFile: URL { folder.appendingPathComponent(Self.errorGolden) }
  public var realPageSpecFile: URL { folder.appendingPathComponent(Self.realPageSpec) }

  /// True when the case reads a real page from the shared folder.
  public var isReal: Bool { FileManager.default.fileExists(atPath: realPageSpecFile.path) }
}

/// `case.json`: which real page a case reads, and the request it came from.
public struct RealPageSpec: Codable, Sendable {
  /// Path relative to the real-fixtures folder (`ncaa-stats/team-594020-schedule-mlax-2025.html`).
  public var page: String
  /// The URL the page was fetched from; absent for a file whose URL is not known (the page is
  /// then claimed by content).
  public var url: String?
  public var status: Int?
  public var headers: [String: String]?
}
