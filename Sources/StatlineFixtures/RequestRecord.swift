import Foundation
import StatlineCore

/// `request.json` beside a saved page: what the server said when the page was fetched.
public struct RequestRecord: Codable, Sendable, Equatable {
  public var url: String
  public var status: Int
  public var headers: [String: String]
  /// ISO 8601; informational (parsers never read it as "now").
  public var fetchedAt: String?
  /// The sport the page's target was found with (`Target.sport`, `Page.sport`): what a parser
  /// may take when the page does not say (a stats.ncaa.org box score never names its sport).
  public var sport: String?

  public init(
    url: String, status: Int = 200, headers: [String: String] = [:], fetchedAt: String? = nil, sport: String? = nil
  ) {
    self.url = url
    self.status = status
    self.headers = headers
    self.fetchedAt = fetchedAt
    self.sport = sport
  }

  public static func load(_ file: URL) throws(StatlineError) -> RequestRecord {
    do {
      return try JSONDecoder().decode(RequestRecord.self, from: Data(contentsOf: file))
    } catch {
      throw StatlineError(
        .configuration, "cannot read the request record: \(error)", location: file.path,
        hint: "request.json needs url and status, and may have headers, fetchedAt and sport")
    }
  }

  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}
