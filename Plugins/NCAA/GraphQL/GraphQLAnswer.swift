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

  /// The answer's `data.<field>`, read. `errors[]` naming `PersistedQuery` is a stale hash;
  /// other errors are reported as they are; an object holding only `__typename` is what a hash of
  /// another sport returns. One pass over the body (`JSONDocument`); `JSONDecoder` took most of
  /// a play-by-play's reading time.
  static func decode<T: JSONReadable>(_ type: T.Type, field: String, from page: Page) throws -> T {
    let root: JSONNode
    do {
      root = try JSONDocument(data: page.body).root
    } catch {
      throw StatlineError(
        .undecodable, "the answer is not JSON: \(error)",
        hint: "a GraphQL answer is JSON; the page may be an error page or cut short")
    }
    let envelope = GraphQLEnvelope<T>(root, field: field)
    // The operation's name is read from the URL only for an error's message.
    var operation: String? { page.url.flatMap { PersistedQuery.parameters(of: $0)["meta"] } }
    if !envelope.errors.isEmpty {
      let joined = envelope.errors.compactMap { $0 }.joined(separator: "; ")
      if joined.localizedCaseInsensitiveContains("PersistedQuery") {
        throw staleHash(operation: operation, detail: joined)
      }
      throw StatlineError(
        .wrongPage, "ncaa.com answered with errors: \(joined.isEmpty ? "(no message)" : joined)",
        hint: "check the query's variables (contest id, sport code, date)")
    }
    switch envelope.data {
    case .none:
      throw StatlineError(.wrongPage, "the answer has no data object", hint: "this is not a GraphQL answer")
    case .missing(let keys):
      throw StatlineError(
        .wrongPage, "the answer's data has no \(field) (it holds: \(keys.joined(separator: ", ")))",
        hint: "the contest id may be unknown to ncaa.com, or the operation is another one")
    case .onlyTypename:
      throw StatlineError(
        .wrongPage, "data.\(field) holds only __typename: the query answered for another sport",
        hint: "the hash configured for \(operation ?? "this operation") belongs to another sport's query; "
          + "use the lacrosse operation's hash")
    case .value(.failure(let error)):
      throw StatlineError(.wrongPage, "data.\(field) does not have the expected shape: \(error)")
    case .value(.success(let value)):
      return value
    }
  }
}

/// A JSON value that ncaa.com sends as a number or a string (`teamId`, scores).
typealias Flexible = JSONScalar
