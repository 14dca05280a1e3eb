import Foundation
import StatlineCore

/// What a target remembers between polls to avoid work: the validators for a conditional GET
/// and the hash of the last body.
public struct Validators: Sendable, Equatable, Codable {
  public var etag: String?
  public var lastModified: String?
  /// XXH64 of the last body that was parsed (`ContentHash.xxh64`).
  public var bodyHash: UInt64?

  public init(etag: String? = nil, lastModified: String? = nil, bodyHash: UInt64? = nil) {
    self.etag = etag
    self.lastModified = lastModified
    self.bodyHash = bodyHash
  }

  /// The request for `url` carrying these validators.
  public func request(_ url: String, headers: [String: String] = [:]) -> FetchRequest {
    FetchRequest(url: url, headers: headers, etag: etag, lastModified: lastModified)
  }
}

/// Decides whether a fetched page needs parsing: a 304, or a body identical to the last one,
/// is unchanged (no parse, no store write).
public enum ChangeDetector {
  public enum Outcome: Sendable, Equatable {
    case unchanged(Validators)
    case changed(Page, Validators)
  }

  public static func classify(_ page: Page, previous: Validators) -> Outcome {
    if page.status == 304 {
      var refreshed = previous
      refreshed.etag = page.header("etag") ?? previous.etag
      refreshed.lastModified = page.header("last-modified") ?? previous.lastModified
      return .unchanged(refreshed)
    }
    let hash = ContentHash.xxh64(page.body)
    let next = Validators(etag: page.header("etag"), lastModified: page.header("last-modified"), bodyHash: hash)
    return hash == previous.bodyHash ? .unchanged(next) : .changed(page, next)
  }
}
