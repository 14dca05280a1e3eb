import Foundation

/// robots.txt as RFC 9309 reads it: the group for our product token (else `*`), the longest
/// matching `allow`/`disallow` rule wins, an `allow` wins a tie, `*` and `$` in patterns.
///
/// Bounded, so a hostile file costs its host little: at most `maxRules` rules are kept (the rest
/// are counted in `ignoredRules`) and a pattern longer than `maxPattern` characters is ignored;
/// matching a pattern is one left-to-right pass over the path per `*`-separated part (no
/// backtracking).
public struct RobotsTxt: Sendable, Equatable {
  public static let maxRules = 10_000
  public static let maxPattern = 2_048
  struct Rule: Sendable, Equatable {
    var allow: Bool
    var pattern: String
  }

  struct Group: Sendable, Equatable {
    var agents: [String] = []
    var rules: [Rule] = []
    var crawlDelay: Double?
  }

  private var groups: [Group] = []
  /// Rules past `maxRules`, or with a pattern past `maxPattern`, left out.
  public private(set) var ignoredRules = 0

  /// Parses the file; unknown lines are ignored, as the RFC asks.
  public init(_ text: String) {
    var current: Group?
    var lastWasAgent = false
    var kept = 0
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let line = rawLine.prefix { $0 != "#" }
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      switch key {
      case "user-agent":
        if !lastWasAgent, let finished = current { groups.append(finished) }
        if !lastWasAgent { current = Group() }
        current?.agents.append(value.lowercased())
        lastWasAgent = true
      case "allow", "disallow":
        lastWasAgent = false
        guard !value.isEmpty else { continue }  // "Disallow:" with nothing allows everything
        guard kept < Self.maxRules, value.count <= Self.maxPattern else {
          ignoredRules += 1
          continue
        }
        kept += 1
        current?.rules.append(Rule(allow: key == "allow", pattern: value))
      case "crawl-delay":
        lastWasAgent = false
        current?.crawlDelay = Double(value)
      default:
        lastWasAgent = false
      }
    }
    if let current { groups.append(current) }
  }

  /// Whether `path` (with its query) may be fetched by `userAgent`'s product token.
  public func isAllowed(_ path: String, userAgent: String) -> Bool {
    let rules = rules(for: userAgent)
    var best: Rule?
    for rule in rules where Self.matches(rule.pattern, path) {
      if let current = best {
        if rule.pattern.count > current.pattern.count || (rule.pattern.count == current.pattern.count && rule.allow) {
          best = rule
        }
      } else {
        best = rule
      }
    }
    return best?.allow ?? true
  }

  /// The `crawl-delay` for the agent, in seconds, if the file sets one.
  public func crawlDelay(userAgent: String) -> Double? { matchingGroups(userAgent).compactMap(\.crawlDelay).first }

  private func rules(for userAgent: String) -> [Rule] { matchingGroups(userAgent).flatMap(\.rules) }

  private func matchingGroups(_ userAgent: String) -> [Group] {
    let token = Self.productToken(userAgent)
    let named = groups.filter { $0.agents.contains { $0 != "*" && token.hasPrefix($0) } }
    return named.isEmpty ? groups.filter { $0.agents.contains("*") } : named
  }

  /// "Statline/0.1 (+https://…)" → "statline".
  static func productToken(_ userAgent: String) -> String {
    String(userAgent.prefix { $0.isLetter || $0 == "-" || $0 == "_" }).lowercased()
  }

  /// `*` matches any run of characters, a final `$` anchors the end; otherwise a prefix match.
  static func matches(_ pattern: String, _ path: String) -> Bool {
    var pattern = Substring(pattern)
    let anchored = pattern.hasSuffix("$")
    if anchored { pattern = pattern.dropLast() }
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
    var rest = Substring(path)
    for (index, part) in parts.enumerated() {
      if index == 0 {
        guard rest.hasPrefix(part) else { return false }
        rest = rest.dropFirst(part.count)
      } else if index == parts.count - 1 && anchored {
        return rest.hasSuffix(part)
      } else {
        guard let found = rest.range(of: part) else { return false }
        rest = rest[found.upperBound...]
      }
    }
    return !anchored || rest.isEmpty
  }
}
