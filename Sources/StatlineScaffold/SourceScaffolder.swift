import Foundation
import StatlineCore
import StatlineFixtures

/// `statline new-source NAME`: writes a working plugin skeleton (one parser for one page kind),
/// its test target, a sample fixture case with its golden, and the two registration lines
/// (`Package.swift` and `BuiltinPlugins.swift`), so `swift build && swift test` pass at once.
public struct SourceScaffolder: Sendable {
  public let root: URL
  public let name: String

  public static let packageMarker = "  // statline:new-source-plugins"
  public static let listMarker = "    // statline:new-source-list"
  public static let listFile = "Sources/StatlineApp/BuiltinPlugins.swift"

  public init(root: URL, name: String) {
    self.root = root
    self.name = name
  }

  /// `MyLeague` → `my-league`; a run of capitals is one word (`ESPN` → `espn`, `NCAAStats` →
  /// `ncaa-stats`).
  public var sourceId: String {
    let characters = Array(name)
    var result = ""
    for (index, character) in characters.enumerated() {
      let previousIsUpper = index > 0 && characters[index - 1].isUppercase
      let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
      if character.isUppercase && index > 0 && (!previousIsUpper || nextIsLower) { result += "-" }
      result += character.lowercased()
    }
    return result
  }

  public var parserId: String { "\(sourceId)-scoreboard" }
  public var module: String { "\(name)Source" }

  /// The files written, relative to the root.
  public var createdFiles: [String] {
    [
      "Plugins/\(name)/\(module).swift",
      "Plugins/\(name)/ScoreboardParser.swift",
      "Plugins/\(name)/ScoreboardNormalizer.swift",
      "Tests/\(module)Tests/\(module)Tests.swift",
      "Fixtures/\(name)/\(parserId)/sample/page.html",
      "Fixtures/\(name)/\(parserId)/sample/request.json",
      "Fixtures/\(name)/\(parserId)/sample/\(FixtureCase.batchGolden)",
    ]
  }

  /// Writes everything, or throws before writing anything when the name is taken or invalid.
  public func run() throws(StatlineError) -> [String] {
    guard name.range(of: "^[A-Z][A-Za-z0-9]*$", options: .regularExpression) != nil else {
      throw StatlineError(
        .configuration, "'\(name)' is not a valid plugin name",
        hint: "use UpperCamelCase letters and digits, e.g. PrestoSports")
    }
    let manager = FileManager.default
    for folder in ["Plugins/\(name)", "Fixtures/\(name)", "Tests/\(module)Tests"]
    where manager.fileExists(atPath: root.appendingPathComponent(folder).path) {
      throw StatlineError(.configuration, "\(folder) already exists", hint: "choose another name")
    }
    let package = try read("Package.swift")
    let list = try read(Self.listFile)
    guard package.contains(Self.packageMarker) else {
      throw StatlineError(
        .configuration, "Package.swift has no '\(Self.packageMarker.trimmingCharacters(in: .whitespaces))' marker",
        location: root.path)
    }
    guard list.contains(Self.listMarker) else {
      throw StatlineError(
        .configuration, "\(Self.listFile) has no '\(Self.listMarker.trimmingCharacters(in: .whitespaces))' marker",
        location: root.path)
    }
    guard !package.contains("\n  \"\(name)\"") else {
      throw StatlineError(.configuration, "Package.swift already lists '\(name)'")
    }
    let files = zip(createdFiles, try contents())
    for (path, text) in files { try write(path, text) }
    try write("Package.swift", Self.insert("  \"\(name)\",", before: Self.packageMarker, in: package))
    try write(
      Self.listFile,
      Self.addImport("import \(module)", to: Self.insert("    \(module).plugin,", before: Self.listMarker, in: list)))
    return createdFiles + ["Package.swift", Self.listFile]
  }

  /// Inserts an array element line before the marker line, adding the comma that a formatter
  /// may have removed from the element above it.
  public static func insert(_ line: String, before marker: String, in source: String) -> String {
    var lines = source.components(separatedBy: "\n")
    guard let index = lines.firstIndex(of: marker) else { return source }
    if let previous = lines[..<index].lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
      let text = lines[previous].trimmingCharacters(in: .whitespaces)
      if !text.hasSuffix(",") && !text.hasSuffix("[") && !text.hasPrefix("//") { lines[previous] += "," }
    }
    lines.insert(line, at: index)
    return lines.joined(separator: "\n")
  }

  /// Adds an import line to the leading import block, keeping it sorted.
  public static func addImport(_ line: String, to source: String) -> String {
    var lines = source.components(separatedBy: "\n")
    let imports = lines.prefix { $0.hasPrefix("import ") }
    let sorted = (Array(imports) + [line]).sorted()
    lines.replaceSubrange(0..<imports.count, with: sorted)
    return lines.joined(separator: "\n")
  }

  private func read(_ path: String) throws(StatlineError) -> String {
    do {
      return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    } catch {
      throw StatlineError(
        .io, "cannot read \(path)", location: root.path, hint: "run from the package root or pass --root")
    }
  }

  private func write(_ path: String, _ text: String) throws(StatlineError) {
    let url = root.appendingPathComponent(path)
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    } catch {
      throw StatlineError(.io, "cannot write \(path): \(error.localizedDescription)", location: root.path)
    }
  }

  /// The sample page's games, which the golden and the skeleton parser both describe.
  static let sampleURL = "https://scores.example.com/scoreboard"

  func sampleBatch() -> Batch {
    Batch(
      source: sourceId, parser: parserId, url: Self.sampleURL,
      games: [
        Game(
          id: "\(sourceId):1001", sport: .lacrosseMen, status: .final,
          away: TeamLine(team: TeamRef(name: "Away College"), score: 7),
          home: TeamLine(team: TeamRef(name: "Home University"), score: 9)),
        Game(
          id: "\(sourceId):1002", sport: .lacrosseMen, status: .scheduled,
          away: TeamLine(team: TeamRef(name: "Visitor State")),
          home: TeamLine(team: TeamRef(name: "Host Tech"))),
      ])
  }

  func contents() throws(StatlineError) -> [String] {
    let golden: String
    do { golden = try sampleBatch().jsonString() } catch {
      throw StatlineError(.io, "cannot encode the sample golden: \(error)")
    }
    let request: String
    do {
      request = String(decoding: try RequestRecord(url: Self.sampleURL, status: 200).jsonData(), as: UTF8.self)
    } catch {
      throw StatlineError(.io, "cannot encode the sample request: \(error)")
    }
    return [
      ScaffoldTemplates.descriptor(name: name, sourceId: sourceId, parserId: parserId),
      ScaffoldTemplates.parser,
      ScaffoldTemplates.normalizer(sourceId: sourceId),
      ScaffoldTemplates.tests(name: name, module: module, parserId: parserId),
      ScaffoldTemplates.samplePage,
      request,
      golden,
    ]
  }
}
