import Foundation

/// The package root (the folder holding `Package.swift`), found from this source file's path,
/// so tests read `Fixtures/` wherever the clone is.
public enum PackageRoot {
  public static let url: URL = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        return folder
      }
      folder.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  }()

  public static func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }
}
