import Foundation

/// A request's query parameters, checked: an unknown parameter is a 400, never ignored.
struct APIQuery {
  private(set) var values: [String: String] = [:]

  /// The longest query string read (a longer one is refused).
  static let maximumLength = 2048
  /// The longest a list of ids may make it (`/v1/boxscores?ids=`: 100 canonical ids, encoded).
  static let maximumListLength = 16_384

  init(_ query: String?, allowed: Set<String>, maximumLength: Int = Self.maximumLength) throws(Problem) {
    guard let query, !query.isEmpty else { return }
    guard query.utf8.count <= maximumLength else {
      throw Problem(
        title: "Query too long", status: 400,
        detail: "the query string has \(query.utf8.count) bytes; at most \(maximumLength) are read")
    }
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = Self.decode(parts[0])
      let value = parts.count > 1 ? Self.decode(parts[1]) : ""
      guard allowed.contains(name) else {
        throw Problem(
          title: "Unknown parameter", status: 400,
          detail: "query parameter '\(name.prefix(40))' is not known here; known: "
            + (allowed.isEmpty ? "none" : allowed.sorted().joined(separator: ", ")))
      }
      guard values[name] == nil else {
        throw Problem(title: "Repeated parameter", status: 400, detail: "query parameter '\(name)' is given twice")
      }
      values[name] = value
    }
  }

  static func decode(_ text: Substring) -> String {
    String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
  }

  subscript(_ name: String) -> String? { values[name] }

  /// A whole number in `range`, or `fallback` when absent.
  func int(_ name: String, in range: ClosedRange<Int64>, default fallback: Int64) throws(Problem) -> Int64 {
    guard let text = values[name] else { return fallback }
    guard let value = Int64(text), range.contains(value) else {
      throw Problem.badParameter(name, text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }
}
