import Foundation

/// Where the real saved pages are (`../shared/fixtures/real`), from the environment.
///
/// Unset: real-page cases are skipped with a visible note (a clone without `shared/`). Set to a
/// folder that does not exist: they fail.
public struct RealFixtures: Sendable {
  public static let variable = "STATLINE_REAL_FIXTURES"

  public let folder: URL?

  public init(folder: URL?) { self.folder = folder }

  public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> RealFixtures
  {
    guard let path = environment[variable], !path.isEmpty else { return RealFixtures(folder: nil) }
    return RealFixtures(folder: URL(fileURLWithPath: path))
  }

  /// Every real page file (README excluded), as paths relative to the folder, sorted.
  public func pages() -> [String] {
    guard let folder, let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var result: [String] = []
    while let relative = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let full = folder.appendingPathComponent(relative).path
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
        !relative.hasSuffix(".md")
      {
        result.append(relative)
      }
    }
    return result.sorted()
  }
}
