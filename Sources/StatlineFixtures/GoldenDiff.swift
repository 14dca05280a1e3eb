/// A readable account of how an actual output differs from its golden: the first differing
/// line, with the lines around it from both sides.
public enum GoldenDiff {
  public static func describe(expected: String, actual: String, context: Int = 3, limit: Int = 40) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix
      && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    var lines = ["first difference at line \(prefix + 1) (- golden, + actual):"]
    for index in max(0, prefix - context)..<prefix { lines.append("  \(old[index])") }
    let removed = old[prefix..<(old.count - suffix)]
    let added = new[prefix..<(new.count - suffix)]
    for line in removed.prefix(limit) { lines.append("- \(line)") }
    if removed.count > limit { lines.append("- … \(removed.count - limit) more lines") }
    for line in added.prefix(limit) { lines.append("+ \(line)") }
    if added.count > limit { lines.append("+ … \(added.count - limit) more lines") }
    let tail = old.count - suffix
    for index in tail..<min(old.count, tail + context) { lines.append("  \(old[index])") }
    return lines.joined(separator: "\n")
  }
}
