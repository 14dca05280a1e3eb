/// `{name}` interpolation over already-evaluated fields.
enum Template {
  /// The names referred to, in order.
  static func references(in template: String) -> [String] {
    var names: [String] = []
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else { break }
      names.append(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return names
  }

  /// The template with each `{name}` replaced; nil when any referenced value is missing.
  static func render(_ template: String, lookup: (String) -> String?) -> String? {
    var result = ""
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      result += rest[..<open]
      guard let value = lookup(String(rest[rest.index(after: open)..<close])) else { return nil }
      result += value
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }
}
