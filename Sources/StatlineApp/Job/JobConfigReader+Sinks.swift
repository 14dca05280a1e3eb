import StatlineCore
import StatlineEvents
import Yams

extension YAMLWalker {
  /// `sinks:`, a list of `{kind, name, path | url + secretEnv, timeout, filter, retry}`.
  func sinks(_ node: Yams.Node) throws(StatlineError) -> [JobConfig.SinkSpec] {
    guard let items = node.sequence else {
      throw failure(
        "sinks", node, "must be a list",
        expected: "- kind: jsonl (path: events.jsonl) or - kind: webhook, url: https://…, secretEnv: NAME")
    }
    var specs: [JobConfig.SinkSpec] = []
    for (index, item) in items.enumerated() { specs.append(try sink(item, "sinks[\(index)]", index: index)) }
    return specs
  }

  func sink(_ node: Yams.Node, _ path: String, index: Int) throws(StatlineError) -> JobConfig.SinkSpec {
    let fields = try pairs(node, path, keys: ConfigKeys.sink)
    guard let kindNode = fields.first(where: { $0.0 == "kind" })?.1 else {
      throw failure(path, node, "has no kind", expected: "kind: jsonl or kind: webhook")
    }
    let kindText = try string(kindNode, "\(path).kind")
    guard let kind = JobConfig.SinkSpec.Kind(rawValue: kindText) else {
      throw failure("\(path).kind", kindNode, "unknown sink kind '\(kindText)'", expected: "jsonl or webhook")
    }
    var spec = JobConfig.SinkSpec(name: index == 0 ? kind.rawValue : "\(kind.rawValue)-\(index + 1)", kind: kind)
    for (key, value) in fields {
      let at = "\(path).\(key)"
      switch key {
      case "name": spec.name = try string(value, at)
      case "path": spec.path = try string(value, at)
      case "url": spec.url = try url(value, at, credentials: true)
      case "secretEnv": spec.secretEnv = try string(value, at)
      case "timeout": spec.timeout = try duration(value, at)
      case "inFlight": spec.inFlight = try int(value, at, minimum: 1)
      case "filter": spec.filter = try filter(value, at)
      case "retry":
        for (name, setting) in try pairs(value, at, keys: ConfigKeys.sinkRetry) {
          let duration = try duration(setting, "\(at).\(name)")
          switch name {
          case "base": spec.retry.base = duration
          case "cap": spec.retry.cap = duration
          default: spec.retry.giveUpAfter = duration
          }
        }
      default: break
      }
    }
    if kind == .webhook && (spec.url == nil || spec.secretEnv == nil) {
      throw failure(
        path, node, "a webhook sink needs url and secretEnv",
        expected: "url: https://host/path and secretEnv: NAME (the variable holding the secret)")
    }
    return spec
  }

  func filter(_ node: Yams.Node, _ path: String) throws(StatlineError) -> EventFilter {
    var filter = EventFilter()
    for (key, value) in try pairs(node, path, keys: ConfigKeys.sinkFilter) {
      let at = "\(path).\(key)"
      guard let items = value.sequence else {
        throw failure(at, value, "must be a list", expected: "[game.goal, game.final]")
      }
      let strings = try items.enumerated().map { (index, item) throws(StatlineError) in
        try string(item, "\(at)[\(index)]")
      }
      switch key {
      case "kinds":
        for (index, kind) in strings.enumerated() where !ChangeEvent.Kind.all.map(\.rawValue).contains(kind) {
          throw failure(
            "\(at)[\(index)]", items[index], "unknown event kind '\(kind)'",
            expected: ChangeEvent.Kind.all.map(\.rawValue).joined(separator: ", "))
        }
        filter.kinds = strings.map(ChangeEvent.Kind.init(rawValue:))
      case "sports": filter.sports = strings.map { Sport($0) }
      default: filter.teams = strings
      }
    }
    return filter
  }
}
