import Foundation

/// A regular expression that a page URL must match (searched, not anchored, unless the
/// pattern anchors itself).
public struct URLPattern: Sendable, CustomStringConvertible {
  public let pattern: String
  private let regex: Regex

  public init(_ pattern: String) throws {
    do {
      self.pattern = pattern
      self.regex = Regex(try NSRegularExpression(pattern: pattern, options: [.caseInsensitive]))
    } catch {
      throw StatlineError(
        .configuration, "invalid URL pattern '\(pattern)'",
        hint: "write an ICU regular expression, e.g. '^https?://stats\\.ncaa\\.org/teams/\\d+'")
    }
  }

  public func matches(_ url: String) -> Bool {
    let range = NSRange(url.startIndex..., in: url)
    return regex.value.firstMatch(in: url, range: range) != nil
  }

  public var description: String { pattern }

  /// NSRegularExpression is immutable and thread-safe once built.
  private struct Regex: @unchecked Sendable {
    let value: NSRegularExpression
    init(_ value: NSRegularExpression) { self.value = value }
  }
}
