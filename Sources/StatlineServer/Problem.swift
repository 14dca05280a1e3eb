import Foundation

/// An RFC 9457 problem details answer (`application/problem+json`).
public struct Problem: Error, Sendable, Codable, Equatable {
  public var type = "about:blank"
  public var title: String
  public var status: Int
  public var detail: String
  /// The request path the problem is about.
  public var instance: String?
  /// Seconds to wait (a 503), sent as `Retry-After` too.
  var retryAfter: Int? = nil

  enum CodingKeys: String, CodingKey { case type, title, status, detail, instance }

  public static func notFound(_ detail: String) -> Problem { Problem(title: "Not found", status: 404, detail: detail) }

  /// A bad parameter, named, with the form it takes.
  public static func badParameter(_ name: String, _ value: String, expected: String) -> Problem {
    Problem(
      title: "Bad parameter", status: 400,
      detail: "query parameter '\(name)' is '\(value.prefix(80))'; expected \(expected)")
  }

  /// The store could not be read: try again shortly.
  static func storeUnavailable(_ error: any Error) -> Problem {
    var problem = Problem(title: "Store unavailable", status: 503, detail: "the store could not be read: \(error)")
    problem.retryAfter = 5
    return problem
  }

  /// Anything but GET or HEAD: the API is read-only.
  static func methodNotAllowed(path: String) -> APIResponse {
    var response = Problem(
      title: "Method not allowed", status: 405, detail: "the API is read-only: use GET or HEAD"
    ).response(path: path)
    response.headers["allow"] = "GET, HEAD"
    return response
  }

  /// - Parameter path: the request's path, as `instance` (nil where the request had none that
  ///   could be read).
  /// The most an answer quotes of the request: its path in `instance`, and a detail (which may
  /// quote an id or a parameter from it). A 70 KB path is answered in a few hundred bytes.
  static let quotedPath = 300
  static let quotedDetail = 1_000

  func response(path: String?) -> APIResponse {
    var problem = self
    problem.instance = path.map { Self.bounded($0, Self.quotedPath) }
    problem.detail = Self.bounded(detail, Self.quotedDetail)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var headers = ["content-type": "application/problem+json; charset=utf-8", "cache-control": "no-store"]
    if let retryAfter { headers["retry-after"] = String(retryAfter) }
    return APIResponse(status: status, headers: headers, body: Array((try? encoder.encode(problem)) ?? Data()))
  }

  /// `text` cut to `limit` characters, saying how much was left out.
  static func bounded(_ text: String, _ limit: Int) -> String {
    guard text.count > limit else { return text }
    return text.prefix(limit) + "… (\(text.utf8.count) bytes in all)"
  }
}
