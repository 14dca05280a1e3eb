import StatlineCore
import StatlineHTML

/// Evaluates `FieldSpec`s against a node, in order, so later fields and templates can use
/// earlier ones.
struct FieldEvaluator {
  let url: String?
  let page: [String: FieldValue]

  func evaluate(_ specs: [FieldSpec], at node: Node, context: String) throws(StatlineError) -> RowValues {
    var row = RowValues(context: context, values: [:])
    for spec in specs {
      if let value = try value(of: spec, at: node, row: row) { row.values[spec.name] = value }
    }
    return row
  }

  private func lookup(_ name: String, row: RowValues) -> String? {
    if name.hasPrefix("page.") { return page[String(name.dropFirst(5))]?.description }
    return row[name]?.description
  }

  func value(of spec: FieldSpec, at node: Node, row: RowValues) throws(StatlineError) -> FieldValue? {
    let fail = { (message: String) in
      StatlineError(
        .wrongPage, message, context: "\(row.context), field '\(spec.name)' (\(spec.keyPath))",
        hint: "the page may have changed: compare it with the config")
    }
    var text: String?
    switch spec.origin {
    case .url: text = url
    case .template(let template): text = Template.render(template) { lookup($0, row: row) }
    case .select(let selector):
      let matches: [Node]
      switch selector {
      case .css(let css): matches = try node.select(css: css)
      case .xpath(let xpath):
        // An XPath may also yield a string (`string(...)`, `normalize-space(...)`).
        matches = try node.select(xpath: xpath)
        if matches.isEmpty, !xpath.isEmpty {
          let string = try node.string(xpath: xpath)
          text = string.isEmpty ? nil : string
        }
      }
      let read = { (match: Node) -> String? in
        if let attribute = spec.attribute { return match.attribute(attribute) }
        return spec.trim ? match.text : match.rawText
      }
      if spec.joinAll {
        let parts = matches.compactMap(read).filter { !$0.isEmpty }
        if !parts.isEmpty { text = parts.joined(separator: " ") }
      } else if let first = matches.first {
        text = read(first)
      }
    }
    if spec.trim { text = text.map(Node.normalizeWhitespace) }
    if let current = text, !spec.regex.isEmpty {
      text = spec.regex.lazy.compactMap { $0.capture(in: current) }.first
      if spec.trim { text = text.map(Node.normalizeWhitespace) }
    }
    if text?.isEmpty == true { text = nil }
    if let current = text, !spec.map.isEmpty || spec.otherwise != nil {
      text = spec.map[current] ?? spec.otherwise ?? current
    }
    var value: FieldValue?
    if let current = text {
      switch spec.type {
      case .string: value = .string(current)
      case .integer:
        let digits = current.filter { $0 != "," && $0 != " " }
        guard let number = Int(digits) else { throw fail("'\(current)' is not an integer") }
        value = .integer(number + (spec.add ?? 0))
      case .date:
        guard let iso = spec.dateFormat?.isoDate(from: current) else {
          throw fail("'\(current)' is not a date of the form \(spec.dateFormat?.pattern ?? "?")")
        }
        value = .string(iso)
      case .boolean:
        switch current.lowercased() {
        case "false", "no", "n", "0": value = .boolean(false)
        default: value = .boolean(true)
        }
      }
    } else if spec.type == .boolean && spec.defaultValue == nil {
      value = .boolean(false)
    }
    if let format = spec.format, let current = value {
      value = Template.render(format) { $0 == "value" ? current.description : lookup($0, row: row) }.map(
        FieldValue.string)
    }
    if value == nil, let fallback = spec.defaultValue {
      value = Template.render(fallback) { lookup($0, row: row) }.map { text in
        switch spec.type {
        case .integer: Int(text).map(FieldValue.integer) ?? .string(text)
        case .boolean: .boolean(text.lowercased() == "true")
        default: .string(text)
        }
      }
    }
    if value == nil && spec.required { throw fail("the required value is missing") }
    return value
  }
}
