import Foundation

/// robots.txt as RFC 9309 reads it: the group for our product token (else `*`), the longest
/// matching `allow`/`disallow` rule wins, an `allow` wins a tie, `*` and `$` in patterns.
///
/// Bounded, so a hostile file costs its host little and nobody else anything:
/// - at most `maxRules` rules are kept (the rest are counted in `ignoredRules`) and a pattern
///   longer than `maxPattern` bytes is ignored;
/// - an agent's rules are chosen and ordered once (`rules(for:)`, longest first), so one URL's
///   match stops at the first rule that matches;
/// - matching is one left-to-right pass over the path per `*`-separated part (no
///   backtracking), and one URL's match may cost at most `matchBudget` byte comparisons: past
///   it the answer is `tooCostly`, which the fetcher treats as a refusal of that host's URL.
public struct RobotsTxt: Sendable, Equatable {
  public static let maxRules = 10_000
  public static let maxPattern = 2_048
  /// Byte comparisons one URL's match may cost (a few milliseconds at most).
  public static let matchBudget = 2_000_000

  struct Rule: Sendable, Equatable {
    var allow: Bool
    /// The pattern's `*`-separated parts, as bytes, without a final `$`.
    var parts: [[UInt8]]
    var anchored: Bool
    /// The pattern's length in bytes, `$` and `*` included: how specific it is.
    var length: Int

    init(allow: Bool, pattern: String) {
      self.allow = allow
      var bytes = Array(pattern.utf8)
      length = bytes.count
      anchored = bytes.last == UInt8(ascii: "$")
      if anchored { bytes.removeLast() }
      parts = bytes.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
    }
  }

  struct Group: Sendable, Equatable {
    var agents: [String] = []
    var rules: [Rule] = []
    var crawlDelay: Double?
  }

  /// What one URL's match says.
  public enum Verdict: Sendable, Equatable {
    case allowed, disallowed
    /// The match would cost more than `matchBudget` byte comparisons (a hostile file).
    case tooCostly
  }

  /// One agent's rules, chosen and ordered once: longest first, `allow` first on a tie, so the
  /// first rule that matches is the one that wins.
  public struct AgentRules: Sendable, Equatable {
    let rules: [Rule]
    public let crawlDelay: Double?

    init(_ groups: [Group]) {
      rules = groups.flatMap(\.rules).sorted { ($0.length, $0.allow ? 1 : 0) > ($1.length, $1.allow ? 1 : 0) }
      crawlDelay = groups.compactMap(\.crawlDelay).first
    }

    /// Whether `path` (with its query) may be fetched, within `budget` byte comparisons.
    public func verdict(_ path: String, budget: Int = RobotsTxt.matchBudget) -> Verdict {
      let bytes = Array(path.utf8)
      var spent = 0
      for rule in rules {
        guard let matched = RobotsTxt.matches(rule, bytes, spent: &spent, budget: budget) else { return .tooCostly }
        if matched { return rule.allow ? .allowed : .disallowed }
      }
      return .allowed
    }
  }

  private var groups: [Group] = []
  /// Rules past `maxRules`, or with a pattern past `maxPattern`, left out.
  public private(set) var ignoredRules = 0
  /// The rules of the agent the file was prepared for (`prepared(for:)`), chosen once.
  private var prepared: (token: String, rules: AgentRules)?

  public static func == (lhs: RobotsTxt, rhs: RobotsTxt) -> Bool {
    lhs.groups == rhs.groups && lhs.ignoredRules == rhs.ignoredRules
  }

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
        guard kept < Self.maxRules, value.utf8.count <= Self.maxPattern else {
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

  /// The file with `userAgent`'s rules chosen and ordered once, for the many URLs it will judge.
  public func prepared(for userAgent: String) -> RobotsTxt {
    var file = self
    file.prepared = (Self.productToken(userAgent), rules(for: userAgent))
    return file
  }

  /// Whether `path` (with its query) may be fetched by `userAgent`'s product token.
  public func isAllowed(_ path: String, userAgent: String) -> Bool {
    verdict(path, userAgent: userAgent) == .allowed
  }

  /// What the file says of `path` for `userAgent`, within `RobotsTxt.matchBudget`.
  public func verdict(_ path: String, userAgent: String) -> Verdict {
    if let prepared, prepared.token == Self.productToken(userAgent) { return prepared.rules.verdict(path) }
    return rules(for: userAgent).verdict(path)
  }

  /// The `crawl-delay` for the agent, in seconds, if the file sets one.
  public func crawlDelay(userAgent: String) -> Double? { rules(for: userAgent).crawlDelay }

  /// The rules of the groups that name `userAgent`'s product token, else those of `*`.
  public func rules(for userAgent: String) -> AgentRules {
    let token = Self.productToken(userAgent)
    let named = groups.filter { $0.agents.contains { $0 != "*" && token.hasPrefix($0) } }
    return AgentRules(named.isEmpty ? groups.filter { $0.agents.contains("*") } : named)
  }

  /// "Statline/0.1 (+https://…)" → "statline".
  static func productToken(_ userAgent: String) -> String {
    String(userAgent.prefix { $0.isLetter || $0 == "-" || $0 == "_" }).lowercased()
  }

  /// `*` matches any run of bytes, a final `$` anchors the end; otherwise a prefix match. Nil
  /// when the comparisons spent (counted in `spent`, across rules) pass `budget`.
  static func matches(_ rule: Rule, _ path: [UInt8], spent: inout Int, budget: Int) -> Bool? {
    var position = 0
    let last = rule.parts.count - 1
    for (index, part) in rule.parts.enumerated() {
      if index == 0 {
        spent += part.count
        guard path.count >= part.count, path[0..<part.count].elementsEqual(part) else {
          return spent > budget ? nil : false
        }
        position = part.count
      } else if index == last && rule.anchored {
        spent += part.count
        guard path.count - position >= part.count else { return false }
        return path[(path.count - part.count)...].elementsEqual(part)
      } else if !part.isEmpty {
        // The first place at or after `position` where `part` starts: one pass, never back.
        var found: Int?
        var start = position
        while start + part.count <= path.count {
          spent += 1
          if path[start] == part[0] {
            spent += part.count
            if path[start..<(start + part.count)].elementsEqual(part) {
              found = start
              break
            }
          }
          if spent > budget { return nil }
          start += 1
        }
        guard let found else { return spent > budget ? nil : false }
        position = found + part.count
      }
    }
    if spent > budget { return nil }
    return !rule.anchored || position == path.count
  }
}
