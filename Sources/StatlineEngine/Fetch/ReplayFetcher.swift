import Foundation
import StatlineCore

/// Serves saved pages instead of the network: for tests, `replay` and `demo`.
public struct ReplayFetcher: Fetcher {
  private let pages: [String: Page]
  private let now: @Sendable () -> Date

  /// Serves `pages` by URL; `now` stamps `fetchedAt` (inject a fixed clock in tests).
  public init(pages: [Page], now: @escaping @Sendable () -> Date) {
    var byURL: [String: Page] = [:]
    for page in pages { if let url = page.url { byURL[url] = page } }
    self.pages = byURL
    self.now = now
  }

  public func fetch(_ request: FetchRequest) async throws -> Page {
    guard var page = pages[request.url] else {
      return Page(url: request.url, status: 404, body: Data(), fetchedAt: now())
    }
    page.fetchedAt = now()
    if let etag = request.etag, page.header("etag") == etag {
      return Page(url: request.url, status: 304, headers: page.headers, body: Data(), fetchedAt: now())
    }
    return page
  }
}
