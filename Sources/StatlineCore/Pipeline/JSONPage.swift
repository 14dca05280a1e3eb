import Foundation

/// Reads JSON pages (ncaa.com feeds) with Foundation, the JSON counterpart of `StatlineHTML`'s
/// `Document`: a `PageParser` for a JSON page decodes its records with this.
public enum JSONPage {
  /// Decodes the page body as `T`; failures are `StatlineError`s that name the JSON path.
  public static func decode<T: Decodable>(_ type: T.Type, from page: Page) throws(StatlineError) -> T {
    do {
      return try JSONDecoder().decode(type, from: page.body)
    } catch let error as DecodingError {
      throw StatlineError(
        .wrongPage, "the JSON does not have the expected shape: \(describe(error))", location: page.location,
        hint: "the feed may have changed, or the answer is an error object")
    } catch {
      throw StatlineError(.undecodable, "the body is not JSON: \(error)", location: page.location)
    }
  }

  static func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error {
    case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
    case .typeMismatch(let type, let context): return "expected \(type) at \(path(context.codingPath))"
    case .valueNotFound(let type, let context): return "null where \(type) was expected at \(path(context.codingPath))"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty ? "the body is not valid JSON" : "bad value at \(path(context.codingPath))"
    @unknown default: return "\(error)"
    }
  }
}
