import Foundation

/// A throwaway copy of the package's outline (its manifest, the plugin list, the fixtures and an
/// empty plugin folder) in a temporary folder, for tests of tools that edit a package: the
/// scaffolder and the fixture suite's coverage check.
public enum TemporaryPackage {
  /// Where the built-in plugin list lives (`statline new-source` adds a line to it).
  public static let pluginListFile = "Sources/StatlineApp/BuiltinPlugins.swift"

  public static func make() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("statline-pkg-\(UUID())")
    let manager = FileManager.default
    try manager.createDirectory(
      at: root.appendingPathComponent("Sources/StatlineApp"), withIntermediateDirectories: true)
    try manager.copyItem(at: PackageRoot.file("Package.swift"), to: root.appendingPathComponent("Package.swift"))
    try manager.copyItem(
      at: PackageRoot.file(pluginListFile), to: root.appendingPathComponent(pluginListFile))
    try manager.copyItem(at: PackageRoot.file("Fixtures"), to: root.appendingPathComponent("Fixtures"))
    try manager.createDirectory(
      at: root.appendingPathComponent("Plugins/GenericHTML"), withIntermediateDirectories: true)
    return root
  }

  public static func remove(_ root: URL) { try? FileManager.default.removeItem(at: root) }
}
