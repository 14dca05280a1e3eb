import Foundation
import StatlineCore
import Yams

/// Reads a GenericHTML YAML config, reporting every mistake with its key path, line and the
/// expected form.
public enum ConfigReader {
  public static func load(file: String) throws(StatlineError) -> GenericConfig {
    let text: String
    do {
      text = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw StatlineError(
        .io, "cannot read the GenericHTML config: \(error.localizedDescription)", location: file,
        hint: "check the path")
    }
    return try parse(text, file: file)
  }

  public static func parse(_ yaml: String, file: String? = nil) throws(StatlineError) -> GenericConfig {
    let root: Yams.Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch {
      throw StatlineError(.configuration, "the file is not valid YAML: \(error)", location: file)
    }
    guard let root, root.mapping != nil else {
      throw StatlineError(
        .configuration, "the config is empty or not a mapping", location: file,
        hint: "start with `id:`, `namespace:`, `match:` and `games:` or `teams:`")
    }
    return try NodeReader(file: file).config(root)
  }
}

/// Walks the YAML tree, keeping the key path for messages.
struct NodeReader {
  let file: String?

  func failure(_ path: String, _ node: Yams.Node?, _ message: String, expected: String? = nil)
    -> StatlineError
  {
    let line = node?.mark.map { " (line \($0.line))" } ?? ""
    return StatlineError(
      .configuration, message, location: file, context: path + line,
      hint: expected.map { "expected \($0)" })
  }

  func mapping(_ node: Yams.Node, _ path: String, allowed: Set<String>) throws(StatlineError)
    -> [(String, Yams.Node)]
  {
    guard let mapping = node.mapping else {
      throw failure(
        path, node, "'\(path)' must be a mapping", expected: "keys: \(allowed.sorted().joined(separator: ", "))")
    }
    var pairs: [(String, Yams.Node)] = []
    for (key, value) in mapping {
      guard let name = key.string else { throw failure(path, key, "a key of '\(path)' is not a string") }
      guard allowed.isEmpty || allowed.contains(name) else {
        throw failure(
          "\(path).\(name)", key, "unknown key '\(name)'",
          expected: "one of \(allowed.sorted().joined(separator: ", "))")
      }
      pairs.append((name, value))
    }
    return pairs
  }

  func string(_ node: Yams.Node, _ path: String, expected: String = "a string") throws(StatlineError) -> String {
    guard case .scalar(let scalar) = node else {
      throw failure(path, node, "'\(path)' must be a string", expected: expected)
    }
    return scalar.string
  }

  func strings(_ node: Yams.Node, _ path: String, expected: String) throws(StatlineError) -> [String] {
    if case .scalar = node { return [try string(node, path, expected: expected)] }
    guard case .sequence(let sequence) = node else {
      throw failure(path, node, "'\(path)' must be a string or a list of strings", expected: expected)
    }
    var result: [String] = []
    for (index, item) in sequence.enumerated() {
      result.append(try string(item, "\(path)[\(index)]", expected: expected))
    }
    return result
  }

  func bool(_ node: Yams.Node, _ path: String) throws(StatlineError) -> Bool {
    guard let value = node.bool else {
      throw failure(path, node, "'\(path)' must be true or false", expected: "true or false")
    }
    return value
  }

  func int(_ node: Yams.Node, _ path: String) throws(StatlineError) -> Int {
    guard let value = node.int else {
      throw failure(path, node, "'\(path)' must be an integer", expected: "an integer such as 4")
    }
    return value
  }

  func config(_ root: Yams.Node) throws(StatlineError) -> GenericConfig {
    let pairs = try mapping(
      root, "config", allowed: ["id", "name", "namespace", "sport", "match", "page", "games", "teams", "warnings"])
    let keys = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
    guard let idNode = keys["id"] else {
      throw failure("id", nil, "the config has no 'id'", expected: "a parser id such as ncaa-team-schedule")
    }
    let id = try string(idNode, "id")
    guard id.range(of: "^[a-z0-9][a-z0-9-]*$", options: .regularExpression) != nil else {
      throw failure("id", idNode, "'\(id)' is not a valid parser id", expected: "lower-case letters, digits and dashes")
    }
    guard let namespaceNode = keys["namespace"] else {
      throw failure(
        "namespace", root, "the config has no 'namespace'",
        expected: "the site's id namespace, e.g. ncaa or statbroadcast")
    }
    let namespace = try string(namespaceNode, "namespace")
    var config = GenericConfig(
      id: id, summary: id, namespace: namespace, sport: nil, urlPatterns: [], contains: [], requireComplete: true,
      pageFields: [], games: nil, teams: nil, warnings: [], file: file)
    if let name = keys["name"] { config.summary = try string(name, "name") }
    if let sport = keys["sport"] { config.sport = Sport(try string(sport, "sport")) }
    if let warnings = keys["warnings"] {
      config.warnings = try strings(warnings, "warnings", expected: "caveats to add to every batch")
    }
    if let match = keys["match"] {
      for (key, value) in try mapping(match, "match", allowed: ["urls", "contains", "complete"]) {
        if key == "complete" {
          config.requireComplete = try bool(value, "match.complete")
        } else if key == "urls" {
          for (index, pattern) in try strings(value, "match.urls", expected: "regular expressions").enumerated() {
            do {
              config.urlPatterns.append(try URLPattern(pattern))
            } catch {
              throw failure(
                "match.urls[\(index)]", value, "invalid regular expression '\(pattern)'",
                expected: "an ICU regular expression")
            }
          }
        } else {
          config.contains = try strings(value, "match.contains", expected: "strings the page must contain")
        }
      }
    }
    guard !config.urlPatterns.isEmpty || !config.contains.isEmpty else {
      throw failure("match", nil, "the config has no 'match' rule", expected: "match.urls and/or match.contains")
    }
    var scope = FieldScope(pageFields: [])
    if let page = keys["page"] {
      config.pageFields = try fields(page, "page", allowed: nil, scope: &scope)
      scope = FieldScope(pageFields: Set(config.pageFields.map(\.name)))
    }
    if let games = keys["games"] {
      var gameScope = scope
      config.games = try section(games, "games", allowed: GameFields.allowed, scope: &gameScope)
      try GameFields.check(config.games!, reader: self)
    }
    if let teams = keys["teams"] {
      var teamScope = scope
      config.teams = try section(teams, "teams", allowed: TeamFields.allowed, scope: &teamScope)
      try TeamFields.check(config.teams!, reader: self)
    }
    guard config.games != nil || config.teams != nil else {
      throw failure("config", nil, "the config yields no records", expected: "a 'games:' or 'teams:' section")
    }
    return config
  }

  func section(_ node: Yams.Node, _ path: String, allowed: Set<String>, scope: inout FieldScope)
    throws(StatlineError) -> RecordSection
  {
    let pairs = Dictionary(try mapping(node, path, allowed: ["rows", "fields"]), uniquingKeysWith: { a, _ in a })
    guard let fieldsNode = pairs["fields"] else {
      throw failure(path, node, "'\(path)' has no 'fields'", expected: "a mapping of field names to selectors")
    }
    var rows: Selector?
    if let rowsNode = pairs["rows"] { rows = try selector(rowsNode, "\(path).rows") }
    return RecordSection(
      rows: rows, fields: try fields(fieldsNode, "\(path).fields", allowed: allowed, scope: &scope))
  }

  func selector(_ node: Yams.Node, _ path: String) throws(StatlineError) -> Selector {
    if case .scalar = node { return .css(try string(node, path)) }
    let pairs = try mapping(node, path, allowed: ["css", "xpath"])
    guard pairs.count == 1, let (kind, value) = pairs.first else {
      throw failure(
        path, node, "'\(path)' needs exactly one of css or xpath", expected: "css: SELECTOR or xpath: EXPRESSION")
    }
    let text = try string(value, "\(path).\(kind)")
    return kind == "css" ? .css(text) : .xpath(text)
  }

  func fields(_ node: Yams.Node, _ path: String, allowed: Set<String>?, scope: inout FieldScope)
    throws(StatlineError) -> [FieldSpec]
  {
    var result: [FieldSpec] = []
    for (name, value) in try mapping(node, path, allowed: []) {
      let fieldPath = "\(path).\(name)"
      if let allowed, !allowed.contains(name), !name.hasPrefix("_") {
        throw failure(
          fieldPath, value, "unknown field '\(name)'",
          expected: "one of \(allowed.sorted().joined(separator: ", ")), or a helper field starting with '_'")
      }
      let spec = try field(name: name, node: value, path: fieldPath, scope: scope)
      scope.rowFields.insert(name)
      result.append(spec)
    }
    return result
  }

  static let fieldKeys: Set<String> = [
    "css", "xpath", "value", "url", "attribute", "all", "trim", "regex", "map", "otherwise", "type",
    "date", "add", "format", "default", "required",
  ]

  func field(name: String, node: Yams.Node, path: String, scope: FieldScope) throws(StatlineError) -> FieldSpec {
    var spec = FieldSpec(
      name: name, keyPath: path, origin: .template(""), attribute: nil, joinAll: false, trim: true,
      regex: [], map: [:], otherwise: nil, type: .string, dateFormat: nil, add: nil, format: nil,
      defaultValue: nil, required: false)
    if case .scalar = node {
      spec.origin = .select(.css(try string(node, path)))
      return spec
    }
    var origins = 0
    for (key, value) in try mapping(node, path, allowed: Self.fieldKeys) {
      let keyPath = "\(path).\(key)"
      switch key {
      case "css":
        spec.origin = .select(.css(try string(value, keyPath)))
        origins += 1
      case "xpath":
        spec.origin = .select(.xpath(try string(value, keyPath)))
        origins += 1
      case "value":
        let template = try string(value, keyPath)
        try checkTemplate(template, keyPath, value, scope: scope, allowValue: false)
        spec.origin = .template(template)
        origins += 1
      case "url":
        guard try bool(value, keyPath) else { continue }
        spec.origin = .url
        origins += 1
      case "attribute": spec.attribute = try string(value, keyPath)
      case "all": spec.joinAll = try bool(value, keyPath)
      case "trim": spec.trim = try bool(value, keyPath)
      case "regex":
        for (index, pattern) in try strings(value, keyPath, expected: "regular expressions").enumerated() {
          do {
            spec.regex.append(try RegexPattern(pattern))
          } catch {
            throw failure(
              "\(keyPath)[\(index)]", value, "invalid regular expression '\(pattern)'",
              expected: "an ICU regular expression with one capture group")
          }
        }
      case "map":
        for (from, to) in try mapping(value, keyPath, allowed: []) {
          spec.map[from] = try string(to, "\(keyPath).\(from)")
        }
      case "otherwise": spec.otherwise = try string(value, keyPath)
      case "type":
        let text = try string(value, keyPath)
        guard let type = FieldSpec.ValueType(rawValue: text) else {
          throw failure(
            keyPath, value, "unknown type '\(text)'",
            expected: FieldSpec.ValueType.allCases.map(\.rawValue).joined(separator: ", "))
        }
        spec.type = type
      case "date":
        let text = try string(value, keyPath)
        guard let format = DateFormat(text) else {
          throw failure(
            keyPath, value, "'\(text)' is not a date format",
            expected: "a pattern of yyyy or yy, MM or M or MMM, dd or d, e.g. MM/dd/yyyy")
        }
        spec.dateFormat = format
        spec.type = .date
      case "add": spec.add = try int(value, keyPath)
      case "format":
        let template = try string(value, keyPath)
        try checkTemplate(template, keyPath, value, scope: scope, allowValue: true)
        spec.format = template
      case "default":
        let template = try string(value, keyPath)
        try checkTemplate(template, keyPath, value, scope: scope, allowValue: false)
        spec.defaultValue = template
      default: spec.required = try bool(value, keyPath)
      }
    }
    guard origins == 1 else {
      throw failure(path, node, "field '\(name)' needs exactly one source", expected: "one of css, xpath, value, url")
    }
    if spec.type == .date && spec.dateFormat == nil {
      throw failure(path, node, "field '\(name)' has type date but no 'date' format", expected: "date: MM/dd/yyyy")
    }
    if spec.add != nil && spec.type != .integer {
      throw failure(path, node, "'add' needs type integer", expected: "type: integer")
    }
    return spec
  }

  func checkTemplate(_ template: String, _ path: String, _ node: Yams.Node, scope: FieldScope, allowValue: Bool)
    throws(StatlineError)
  {
    for reference in Template.references(in: template) {
      if reference == "value" && allowValue { continue }
      if reference.hasPrefix("page."), scope.pageFields.contains(String(reference.dropFirst(5))) { continue }
      if scope.rowFields.contains(reference) { continue }
      throw failure(
        path, node, "the template refers to '{\(reference)}', which is not defined before it",
        expected: "{value}, {page.FIELD} or a field defined earlier in the same section")
    }
  }
}

/// The names a template may refer to at a point in the config.
struct FieldScope {
  var pageFields: Set<String>
  var rowFields: Set<String> = []
}
