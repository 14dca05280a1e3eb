import Foundation
import StatlineCore

/// Reading a GraphQL answer: the `data` object a parser wants, or a clear error for the ways
/// ncaa.com says no (STRUCTURE.md §5b).
enum GraphQLAnswer {
  /// HTTP 400 is ncaa.com's answer to a persisted-query hash it no longer knows.
  static func check(_ page: Page) -> StatlineError? {
    guard page.status == 400 else { return nil }
    return staleHash(operation: page.url.flatMap { PersistedQuery.parameters(of: $0)["meta"] }, detail: "HTTP 400")
  }

  static func staleHash(operation: String?, detail: String) -> StatlineError {
    let name = operation ?? "<operation>"
    return StatlineError(
      .configuration, "ncaa.com refused the persisted query \(name) (\(detail)): its hash has rotated",
      hint:
        "read the current hash from https://www.ncaa.com/game/{contestId} (the drupal-settings-json script, "
        + "gamecenter.gqlShas) and set sources.ncaa.options.hash.\(name) in the job configuration")
  }

  /// The answer's `data.<field>`, decoded. `errors[]` naming `PersistedQuery` is a stale hash;
  /// other errors are reported as they are; an object holding only `__typename` is what a hash of
  /// another sport returns.
  static func decode<T: Decodable>(_ type: T.Type, field: String, from page: Page) throws -> T {
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: page.body)
    } catch {
      throw StatlineError(
        .undecodable, "the answer is not JSON: \(error.localizedDescription)",
        hint: "a GraphQL answer is JSON; the page may be an error page or cut short")
    }
    let operation = page.url.flatMap { PersistedQuery.parameters(of: $0)["meta"] }
    if let errors = (root as? [String: Any])?["errors"] as? [[String: Any]], !errors.isEmpty {
      let messages = errors.compactMap { $0["message"] as? String }
      let joined = messages.joined(separator: "; ")
      if joined.localizedCaseInsensitiveContains("PersistedQuery") {
        throw staleHash(operation: operation, detail: joined)
      }
      throw StatlineError(
        .wrongPage, "ncaa.com answered with errors: \(joined.isEmpty ? "(no message)" : joined)",
        hint: "check the query's variables (contest id, sport code, date)")
    }
    guard let data = (root as? [String: Any])?["data"] as? [String: Any] else {
      throw StatlineError(.wrongPage, "the answer has no data object", hint: "this is not a GraphQL answer")
    }
    guard let object = data[field], !(object is NSNull) else {
      throw StatlineError(
        .wrongPage, "the answer's data has no \(field) (it holds: \(data.keys.sorted().joined(separator: ", ")))",
        hint: "the contest id may be unknown to ncaa.com, or the operation is another one")
    }
    if let dictionary = object as? [String: Any], dictionary.keys.allSatisfy({ $0 == "__typename" }) {
      throw StatlineError(
        .wrongPage, "data.\(field) holds only __typename: the query answered for another sport",
        hint: "the hash configured for \(operation ?? "this operation") belongs to another sport's query; "
          + "use the lacrosse operation's hash")
    }
    do {
      let json = try JSONSerialization.data(withJSONObject: object)
      return try JSONDecoder().decode(T.self, from: json)
    } catch let error as DecodingError {
      throw StatlineError(.wrongPage, "data.\(field) does not have the expected shape: \(describe(error))")
    }
  }

  static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "missing '\(key.stringValue)' at \(path(context))"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return "expected \(type) at \(path(context))"
    case .dataCorrupted(let context):
      return "\(context.debugDescription) at \(path(context))"
    @unknown default:
      return "\(error)"
    }
  }

  private static func path(_ context: DecodingError.Context) -> String {
    context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
  }
}

/// A JSON value that ncaa.com sends as a number or a string (`teamId`, scores).
struct Flexible: Decodable, Sendable, Equatable {
  var text: String

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let int = try? container.decode(Int.self) {
      text = String(int)
    } else if let double = try? container.decode(Double.self) {
      text = String(double)
    } else if let bool = try? container.decode(Bool.self) {
      text = String(bool)
    } else {
      text = (try? container.decode(String.self)) ?? ""
    }
  }

  var int: Int? { GameText.int(text) }
}
