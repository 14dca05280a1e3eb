import Foundation

/// Reads JSON pages (ncaa.com and ESPN feeds): `read` gives the page's `JSONDocument` (the
/// plugins' parsers read their records from it), `decode` a `Decodable` through Foundation
/// (for tools and tests, where speed does not matter).
public enum JSONPage {
  /// The page's JSON, read into a tape; a body that is not JSON is `.undecodable`, naming where.
  public static func read(_ page: Page) throws(StatlineError) -> JSONNode {
    do {
      return try JSONDocument(data: page.body).root
    } catch {
      throw StatlineError(.undecodable, "the body is not JSON: \(error)", location: page.location)
    }
  }

  /// Reads the page and its records with `read`; a wrong shape is `.wrongPage`, naming the path.
  public static func read<T>(
    _ page: Page, _ records: (JSONNode) throws(JSONShapeError) -> T
  ) throws(StatlineError) -> T {
    let root = try read(page)
    do {
      return try records(root)
    } catch {
      throw shape(error, page: page)
    }
  }

  /// A shape error as the pipeline reports it.
  public static func shape(_ error: JSONShapeError, page: Page) -> StatlineError {
    StatlineError(
      .wrongPage, "the JSON does not have the expected shape: \(error)", location: page.location,
      hint: "the feed may have changed, or the answer is an error object")
  }

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
