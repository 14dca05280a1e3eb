import Foundation
import StatlineTesting
import Testing

/// `docs/architecture.md`'s module table is the rule, and `Package.swift` and the imports keep it:
/// every target is in the table, depends on no project module its row does not allow, and
/// imports only what it declares (no reliance on a module that comes along transitively).
@Suite struct ArchitectureTests {
  /// A target of the manifest, as `swift package dump-package` gives it.
  struct Target {
    var name: String
    var isTest: Bool
    var folder: URL
    var dependencies: Set<String>
  }

  static let manifest: Result<[Target], any Error> = Result {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("statline-dump-\(UUID())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // A scratch folder of its own: the test runs inside `swift test`, which holds `.build`.
    process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
    process.currentDirectoryURL = PackageRoot.url
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let targets = json["targets"] as? [[String: Any]]
    else { throw ManifestError() }
    return targets.compactMap { target in
      guard let name = target["name"] as? String, let type = target["type"] as? String else { return nil }
      let isTest = type == "test"
      let path = target["path"] as? String ?? (isTest ? "Tests/" : "Sources/") + name
      var dependencies: Set<String> = []
      for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
        for value in dependency.values {
          if let first = (value as? [Any])?.first as? String { dependencies.insert(first) }
        }
      }
      return Target(name: name, isTest: isTest, folder: PackageRoot.file(path), dependencies: dependencies)
    }
  }

  struct ManifestError: Error, CustomStringConvertible {
    var description: String { "swift package dump-package did not give the manifest's targets" }
  }

  /// The table's rows: a module and the project modules it may import ("the plugins": every
  /// target under `Plugins/`).
  static func rules(plugins: [String]) throws -> [String: Set<String>] {
    let text = try String(contentsOf: PackageRoot.file("docs/architecture.md"), encoding: .utf8)
    guard let start = text.range(of: "<!-- modules"), let end = text.range(of: "<!-- /modules -->") else {
      Issue.record("docs/architecture.md has no module table between its markers")
      return [:]
    }
    var rules: [String: Set<String>] = [:]
    let name = try Regex(#"`([A-Za-z0-9]+)`"#)
    for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 4, let module = cells[1].firstMatch(of: name)?.output[1].substring else { continue }
      var allowed = Set(cells[3].matches(of: name).compactMap { $0.output[1].substring.map(String.init) })
      if cells[3].contains("the plugins") { allowed.formUnion(plugins) }
      rules[String(module)] = allowed
    }
    return rules
  }

  /// The modules a folder's Swift files import (`import X` on a line of its own, outside a
  /// string literal: the scaffold's templates and embedded scripts are not imports).
  static func imports(in folder: URL) throws -> Set<String> {
    var found: Set<String> = []
    let statement = try Regex(
      #"^\s*(?:@testable |@preconcurrency )?import (?:struct |enum |class |func |protocol )?([A-Za-z_][A-Za-z0-9_]*)"#)
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
    for file in files ?? [] where file.pathExtension == "swift" {
      var inString = false
      for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
        if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
        if inString { continue }
        if let match = line.firstMatch(of: statement), let module = match.output[1].substring {
          found.insert(String(module))
        }
      }
    }
    return found
  }

  /// Modules of the toolchain, which no manifest declares.
  static let system: Set<String> = [
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch", "Testing",
    "XCTest", "Synchronization",
  ]

  @Test func everyModuleIsInTheTableAndDependsOnlyOnWhatItsRowAllows() throws {
    let targets = try Self.manifest.get()
    let modules = targets.filter { !$0.isTest }
    let project = Set(targets.map(\.name))
    let plugins = modules.filter { $0.folder.path.contains("/Plugins/") }.map(\.name)
    #expect(plugins.count >= 4, "the plugins: \(plugins)")
    let rules = try Self.rules(plugins: plugins)
    // A plugin new-source has just made need not be in the table; the plugin rule below holds it.
    let named = Set(modules.map(\.name)).subtracting(plugins)
    #expect(
      Set(rules.keys).subtracting(plugins) == named && Set(rules.keys).isSubset(of: Set(modules.map(\.name))),
      "docs/architecture.md's module table and Package.swift differ")
    for module in modules {
      guard let allowed = rules[module.name] else { continue }
      let beyond = module.dependencies.intersection(project).subtracting(allowed)
      #expect(beyond.isEmpty, "\(module.name) depends on \(beyond.sorted()), which its row does not allow")
    }
    for plugin in plugins {
      let own = try #require(modules.first { $0.name == plugin }).dependencies.intersection(project)
      #expect(own.isSubset(of: ["StatlineCore", "StatlineHTML"]), "\(plugin) depends on \(own.sorted())")
    }
    let testing = try #require(modules.first { $0.name == "StatlineTesting" })
    #expect(!testing.dependencies.contains("StatlineApp"), "StatlineTesting must link no app code")
  }

  @Test func everyTargetImportsOnlyWhatItDeclares() throws {
    let targets = try Self.manifest.get()
    #expect(targets.count > 20)
    var read = 0
    for target in targets {
      let imported = try Self.imports(in: target.folder)
      read += imported.isEmpty ? 0 : 1
      let undeclared = imported.subtracting(target.dependencies).subtracting(Self.system).subtracting([target.name])
      #expect(
        undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring them in Package.swift")
    }
    #expect(read > 20, "imports were read from \(read) targets")
  }

  /// The reader of imports is not fooled by a template or a script in a string, and finds an
  /// attributed import.
  @Test func importsInStringsAreNotImports() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imports-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = """
      import Foundation
      @testable import StatlineCore
      let template = \"\"\"
        import StatlineApp
        \"\"\"
      let script = "import sqlite3"
      """
    try Data(source.utf8).write(to: folder.appendingPathComponent("A.swift"))
    #expect(try Self.imports(in: folder) == ["Foundation", "StatlineCore"])
  }

  /// No source file grows past 500 lines (the tree keeps one concept a file).
  @Test func noSourceFileIsOver500Lines() throws {
    var checked = 0
    for folder in ["Sources", "Plugins"] {
      let files =
        FileManager.default.enumerator(at: PackageRoot.file(folder), includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL } ?? []
      for file in files where file.pathExtension == "swift" {
        let lines = try String(contentsOf: file, encoding: .utf8).split(
          separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 501, "\(file.path) has \(lines.count - 1) lines: split it by concern")
        checked += 1
      }
    }
    #expect(checked > 300)
  }

  /// Code cites the project's own architecture page, at a section it has.
  @Test func everyCitationOfTheArchitectureNamesASectionItHas() throws {
    let page = try String(contentsOf: PackageRoot.file("docs/architecture.md"), encoding: .utf8)
    let anchors = Set(
      page.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { DocsTests.anchor(String($0.dropFirst(3))) })
    let citation = try Regex(#"architecture\.md#([a-z0-9-]+)"#)
    var cited = 0
    for folder in ["Sources", "Plugins", "Tests"] {
      let files =
        FileManager.default.enumerator(at: PackageRoot.file(folder), includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL } ?? []
      for file in files where ["swift", "json"].contains(file.pathExtension) {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("DESIGN" + ".md"), "\(file.lastPathComponent) cites a file outside the repository")
        for match in text.matches(of: citation) {
          let anchor = String(match.output[1].substring ?? "")
          #expect(
            anchors.contains(anchor), "\(file.lastPathComponent) cites architecture.md#\(anchor), no such section")
          cited += 1
        }
      }
    }
    #expect(cited > 50)
  }
}
