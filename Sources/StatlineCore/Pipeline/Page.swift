import Foundation

/// A fetched (or saved) page: the raw bytes and what the server said about them.
///
/// Parsers read only this value; they never read the clock or the network.
public struct Page: Sendable, Equatable {
  /// The URL the page was fetched from, when known.
  public var url: String?
  public var status: Int
  /// Response headers, names lower-cased.
  public var headers: [String: String]
  public var body: Data {
    didSet { challengeScan = ChallengeScan() }
  }
  /// When the page was fetched, if known (recorded, never read from the clock by a parser).
  public var fetchedAt: Date?
  /// The local file the page was read from, when replayed.
  public var file: String?
  /// The sport its target was found with (`Target.sport`): what a parser may take when the page
  /// itself does not say, never over what it says.
  public var sport: Sport?
  /// What `BlockDetector` found in the body, once it has looked: the fetcher, the poller and the
  /// pipeline then scan a body once between them. Reset when the body changes.
  var challengeScan = ChallengeScan()

  public init(
    url: String? = nil, status: Int = 200, headers: [String: String] = [:], body: Data,
    fetchedAt: Date? = nil, file: String? = nil
  ) {
    self.url = url
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { a, _ in a }
    self.body = body
    self.fetchedAt = fetchedAt
    self.file = file
  }

  /// The URL, else the file: what an error message should point at.
  public var location: String? { url ?? file }

  /// The header's value, by case-insensitive name.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// The first `limit` bytes decoded leniently, for sniffing the kind of page.
  public func prefix(_ limit: Int = 4096) -> String {
    String(decoding: body.prefix(limit), as: UTF8.self)
  }

  /// True when the body holds nothing but whitespace.
  public var isBlank: Bool {
    !body.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
  }
}

/// The memo of `BlockDetector`'s body scan: the index of the challenge marker found (`.some(nil)`:
/// none), or nil when the body was not scanned. Not part of the page's value, so two pages with
/// the same bytes are equal whether or not either was scanned.
struct ChallengeScan: Sendable, Equatable {
  var marker: Int??

  static func == (_: ChallengeScan, _: ChallengeScan) -> Bool { true }
}
