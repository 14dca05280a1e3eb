import Clocks
import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// Credentials set for a host go to that host only: a redirect elsewhere (another host of the
/// same site, a `redirectHosts` entry, another port) goes without them; back on the host they
/// were set for, they are sent again.
@Suite struct RedirectCredentialsTests {
  static let secret = "Bearer s3cret-token"

  func polite(_ fetcher: ScriptedFetcher) -> PoliteFetcher<TestClock<Duration>> {
    var configuration = PoliteFetcher<TestClock<Duration>>.Configuration()
    configuration.hostLimits = HostLimits(concurrency: 2, spacing: .zero)
    configuration.obeyRobots = false
    return PoliteFetcher(wrapping: fetcher, clock: TestClock(), configuration: configuration, random: { 0.5 })
  }

  func request(_ url: String) -> FetchRequest {
    var request = FetchRequest(url: url, headers: ["Authorization": Self.secret, "Cookie": "s=1", "Referer": "r"])
    request.redirectHosts = ["cdn.example.com"]
    return request
  }

  @Test(arguments: [
    "https://www.ncaa.org/moved", "https://cdn.example.com/moved", "https://stats.ncaa.org:8443/moved",
    "http://stats.ncaa.org/moved",
  ])
  func aRedirectToAnotherOriginGoesWithoutCredentials(_ location: String) async throws {
    let start = "https://stats.ncaa.org/teams/1"
    let fetcher = ScriptedFetcher([
      start: [.page(status: 302, headers: ["Location": location])], location: [.ok("<html>moved</html>")],
    ])
    let page = try await polite(fetcher).fetch(request(start))
    #expect(page.status == 200)
    let requests = await fetcher.requests
    #expect(requests.count == 2)
    #expect(requests[0].headers["Authorization"] == Self.secret, "the host it was set for gets it")
    #expect(requests[1].headers["Authorization"] == nil && requests[1].headers["Cookie"] == nil)
    #expect(requests[1].headers["Referer"] == "r", "other headers go on")
  }

  @Test func aRedirectOnTheSameOriginAndBackKeepsThem() async throws {
    let start = "https://stats.ncaa.org/teams/1"
    let away = "https://www.ncaa.org/a"
    let back = "https://stats.ncaa.org/teams/1/b"
    let fetcher = ScriptedFetcher([
      start: [.page(status: 302, headers: ["Location": away])],
      away: [.page(status: 302, headers: ["Location": back])], back: [.ok("<html>b</html>")],
    ])
    _ = try await polite(fetcher).fetch(request(start))
    let sent = await fetcher.requests.map { $0.headers["Authorization"] }
    #expect(sent == [Self.secret, nil, Self.secret])
  }
}
