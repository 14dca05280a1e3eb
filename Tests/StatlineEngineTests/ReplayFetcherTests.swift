import Foundation
import StatlineCore
import StatlineEngine
import Testing

@Suite struct ReplayFetcherTests {
  let stamp = Date(timeIntervalSince1970: 1_771_200_000)

  var fetcher: ReplayFetcher {
    let stamp = stamp
    return ReplayFetcher(
      pages: [Page(url: "https://x.test/1", headers: ["ETag": "\"v1\""], body: Data("<html>1</html>".utf8))],
      now: { stamp })
  }

  @Test func servesSavedPagesStampedWithTheInjectedClock() async throws {
    let page = try await fetcher.fetch(FetchRequest(url: "https://x.test/1"))
    #expect(page.status == 200)
    #expect(page.body == Data("<html>1</html>".utf8))
    #expect(page.fetchedAt == stamp)
  }

  @Test func unknownURLsAre404AndAMatchingETagIs304() async throws {
    #expect(try await fetcher.fetch(FetchRequest(url: "https://x.test/2")).status == 404)
    let revalidated = try await fetcher.fetch(FetchRequest(url: "https://x.test/1", etag: "\"v1\""))
    #expect(revalidated.status == 304)
    #expect(revalidated.body.isEmpty)
  }

  @Test func hostsAreLowerCasedWithoutPortOrUser() {
    #expect(FetchRequest(url: "https://Stats.NCAA.org:443/teams/1").host == "stats.ncaa.org")
    #expect(FetchRequest(url: "http://user@127.0.0.1:8080/x").host == "127.0.0.1")
    #expect(FetchRequest(url: "not a url").host == "")
  }
}
