import Foundation
import StatlineCore

/// A compiled regular expression that yields capture group 1, or the whole match when the
/// pattern has no group.
public struct RegexPattern: Sendable, CustomStringConvertible {
  public let pattern: String
  private let box: Box

  public init(_ pattern: String) throws {
    self.pattern = pattern
    self.box = Box(try NSRegularExpression(pattern: pattern, options: []))
  }

  /// The captured text, or nil when the pattern does not match (or the group did not take part).
  public func capture(in text: String) -> String? {
    let range = NSRange(text.startIndex..., in: text)
    guard let match = box.regex.firstMatch(in: text, range: range) else { return nil }
    let group = match.numberOfRanges > 1 ? 1 : 0
    guard let captured = Range(match.range(at: group), in: text) else { return nil }
    return String(text[captured])
  }

  public var description: String { pattern }

  /// NSRegularExpression is immutable and safe to share once built.
  private final class Box: @unchecked Sendable {
    let regex: NSRegularExpression
    init(_ regex: NSRegularExpression) { self.regex = regex }
  }
}
