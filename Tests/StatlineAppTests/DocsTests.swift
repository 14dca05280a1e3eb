import Foundation
import StatlineApp
import StatlineTesting
import Testing

/// The docs stay true (issue 33): every relative link of the README and `docs/` leads to a file
/// (and a heading, when it names one), and every `statline` command they show, with its options,
/// is one `statline help` knows.
@Suite struct DocsTests {
  static let pages: [URL] = {
    let docs = PackageRoot.file("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    return [PackageRoot.file("README.md")]
      + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
  }()

  static func text(_ page: URL) throws -> String { try String(contentsOf: page, encoding: .utf8) }

  /// GitHub's anchor of a heading: lower-cased, punctuation gone, spaces as dashes.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
      })
  }

  @Test func theReadmeIsAFrontDoorNotALog() throws {
    let readme = try Self.text(Self.pages[0])
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count < 250)
    #expect(Self.pages.count > 8, "the docs pages: \(Self.pages.map(\.lastPathComponent))")
  }

  @Test func everyRelativeLinkResolves() throws {
    let link = try Regex(#"\]\(([^)\s]+)\)"#)
    var checked = 0
    for page in Self.pages {
      for match in try Self.text(page).matches(of: link) {
        let target = String(match.output[1].substring ?? "")
        guard !target.hasPrefix("http://"), !target.hasPrefix("https://"), !target.hasPrefix("mailto:") else {
          continue
        }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let file =
          parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardized
        #expect(
          FileManager.default.fileExists(atPath: file.path), "\(page.lastPathComponent): \(target) leads nowhere")
        if parts.count == 2, FileManager.default.fileExists(atPath: file.path) {
          let headings = try Self.text(file).split(separator: "\n").filter { $0.hasPrefix("#") }.map {
            Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
          }
          #expect(headings.contains(parts[1]), "\(page.lastPathComponent): \(target): no such heading")
        }
        checked += 1
      }
    }
    #expect(checked > 20)
  }

  /// `statline X …`, `scripts/statline X …` and the benchmark tables' `$B X …` in code spans:
  /// the subcommand (and its own subcommand) exists, and so does each `--option` it shows.
  @Test func everyCommandAndOptionTheDocsShowExists() throws {
    let span = try Regex(#"`(?:scripts/)?(?:statline|\$B) ([^`]+)`"#)
    var help: [String: String] = [:]
    func helpText(_ words: [String]) throws -> String {
      let key = words.joined(separator: " ")
      if let known = help[key] { return known }
      let output = try CommandRunner.run(["help"] + words)
      help[key] = output.status == 0 ? output.stdout : ""
      return help[key]!
    }
    let top = try helpText([])
    let subcommands = Set(
      top.components(separatedBy: "SUBCOMMANDS:").last!.split(separator: "\n").compactMap {
        $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first.map(String.init) : nil
      })
    #expect(subcommands.contains("run") && subcommands.contains("bench"))
    var checked = 0
    for page in Self.pages {
      for match in try Self.text(page).matches(of: span) {
        // `tail\|failed\|redeliver` (a table's escaped alternatives) stands for its first.
        let tokens = String(match.output[1].substring ?? "").split(whereSeparator: \.isWhitespace).map {
          String($0.replacingOccurrences(of: "\\", with: "").split(separator: "|").first ?? "")
        }
        guard let first = tokens.first, first.allSatisfy({ $0.isLowercase || $0 == "-" }), !first.isEmpty else {
          continue
        }
        if first.hasPrefix("--") {
          #expect(top.contains(first), "\(page.lastPathComponent): `statline \(first)` is no option")
          continue
        }
        #expect(subcommands.contains(first), "\(page.lastPathComponent): `statline \(first)` is no command")
        guard subcommands.contains(first) else { continue }
        var words = [first]
        // Its own subcommand, listed or hidden (`bench serve`): `statline help` knows it.
        if tokens.count > 1, tokens[1].allSatisfy({ $0.isLowercase || $0 == "-" }), !tokens[1].isEmpty,
          try helpText([first, tokens[1]]).contains("USAGE: statline \(first) \(tokens[1])")
        {
          words.append(tokens[1])
        }
        let text = try helpText(words)
        for token in tokens where token.hasPrefix("--") || token.hasPrefix("[--") {
          let option = String(token.drop { $0 == "[" }.prefix { $0 == "-" || $0.isLetter || $0.isNumber })
          guard option.count > 2 else { continue }
          #expect(
            text.contains(option),
            "\(page.lastPathComponent): `statline \(words.joined(separator: " "))` has no \(option)")
        }
        checked += 1
      }
    }
    #expect(checked > 30)
  }

  /// The configuration reference (`docs/running.md`) names every key the reader accepts, and
  /// only those (`ConfigKeys`, which the reader takes its keys from): `policy.live` /
  /// `imminent` is `policy.live` and `policy.imminent`; a row's own fields (a target's `url`, a
  /// sink's `secretEnv`) are named in its text.
  @Test func theConfigurationReferenceAndTheReaderAgreeOnEveryKey() throws {
    let page = try Self.text(PackageRoot.file("docs/running.md"))
    let section = try #require(page.components(separatedBy: "## Configuration reference").last)
    // The reference's table: the first run of table lines.
    let table = section.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("|") }
      .prefix { $0.hasPrefix("|") }
    var documented: [String: String] = [:]
    for line in table where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
      guard cells.count > 3 else { continue }
      let names = cells[1].split(separator: "/").map {
        $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      }
      guard let first = names.first else { continue }
      let prefix = first.contains(".") ? String(first[...first.lastIndex(of: ".")!]) : ""
      for (index, name) in names.enumerated() { documented[index == 0 ? name : prefix + name] = line.description }
    }
    let reference = ConfigKeys.reference
    #expect(
      Set(documented.keys) == Set(reference.map(\.key)),
      "documented but not read: \(Set(documented.keys).subtracting(reference.map(\.key)).sorted()); read but not documented: \(Set(reference.map(\.key)).subtracting(documented.keys).sorted())"
    )
    for (key, fields) in reference {
      guard let row = documented[key] else { continue }
      for field in fields {
        #expect(row.contains("`\(field)") || row.contains("\(field):"), "the `\(key)` row does not name its `\(field)`")
      }
    }
  }

  /// The read API page (`docs/api.md`) and the OpenAPI document agree: every documented path is
  /// a `GET` row of the endpoint table and every row's path is documented, each query parameter
  /// appears in its row (`name=`), and so does every field of its JSON answer.
  @Test func theAPIPageAndTheOpenAPIDocumentAgree() throws {
    let page = try Self.text(PackageRoot.file("docs/api.md"))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: PackageRoot.file("Sources/StatlineServer/openapi.json")))
        as? [String: Any])
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
    let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }.map(String.init)
    let get = try Regex(#"`(?:GET|POST|PUT|DELETE) (/[^`?]*)"#)
    var rowOf: [String: String] = [:]
    for row in rows {
      for match in row.matches(of: get) { rowOf[String(match.output[1].substring ?? "")] = row }
    }
    #expect(Set(rowOf.keys) == Set(paths.keys), "table: \(rowOf.keys.sorted()); document: \(paths.keys.sorted())")
    for (path, item) in paths {
      guard let row = rowOf[path], let operation = item["get"] as? [String: Any] else { continue }
      for parameter in operation["parameters"] as? [[String: Any]] ?? [] where parameter["in"] as? String == "query" {
        let name = parameter["name"] as? String ?? ""
        #expect(row.contains("\(name)="), "\(path): the row does not show the query parameter \(name)")
      }
      let json = ((operation["responses"] as? [String: Any])?["200"] as? [String: Any])?["content"] as? [String: Any]
      let reference = ((json?["application/json"] as? [String: Any])?["schema"] as? [String: Any])?["$ref"] as? String
      guard let name = reference?.split(separator: "/").last, path.hasPrefix("/v1/"),
        let properties = schemas[String(name)]?["properties"] as? [String: Any]
      else { continue }
      for field in properties.keys {
        #expect(row.contains(field), "\(path): the row does not name the answer's field \(field)")
      }
    }
  }
}
