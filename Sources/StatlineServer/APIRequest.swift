/// A request as the API reads it, free of the HTTP server's types (so the routes are plain,
/// testable functions).
public struct APIRequest: Sendable {
  public var method: String
  /// The path as sent, percent-encoded.
  public var path: String
  /// The raw query string (without `?`), or nil.
  public var query: String?
  /// Header values by lower-cased name.
  public var headers: [String: String]

  public init(method: String, path: String, query: String? = nil, headers: [String: String] = [:]) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
  }
}

/// An answer: status, headers, body.
public struct APIResponse: Sendable, Equatable {
  public var status: Int
  public var headers: [String: String]
  public var body: [UInt8]

  public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}
