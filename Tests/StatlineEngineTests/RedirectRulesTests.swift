import Foundation
import StatlineCore
import StatlineEngine
import Testing

/// Where a poll's redirect may go (no network: the rules decide before any client is asked).
@Suite struct RedirectRulesTests {
  static func redirect(_ location: String?) -> Page {
    Page(status: 302, headers: location.map { ["Location": $0] } ?? [:], body: Data())
  }

  static func next(
    _ location: String?, from: String = "https://stats.ncaa.org/teams/1",
    target: String = "https://stats.ncaa.org/teams/1",
    allowing: Set<String> = [], visited: [String]? = nil, hops: Int = 5
  ) throws(StatlineError) -> WebAddress {
    let current = try WebAddress(from)
    return try RedirectRules(maximumHops: hops).next(
      after: redirect(location), from: current, target: try WebAddress(target), allowedHosts: allowing,
      visited: visited ?? [target])
  }

  static func refusal(_ body: () throws -> WebAddress) -> String {
    do {
      let address = try body()
      return "followed to \(address.url)"
    } catch let error as StatlineError {
      return error.reason
    } catch {
      return "\(error)"
    }
  }

  @Test func aRedirectWithinTheSiteIsFollowed() throws {
    #expect(try Self.next("/teams/2").url == "https://stats.ncaa.org/teams/2")
    #expect(try Self.next("https://www.ncaa.org/x").url == "https://www.ncaa.org/x")
    #expect(try Self.next("//stats.ncaa.org/y").url == "https://stats.ncaa.org/y")
  }

  @Test func aRedirectOffTheSiteIsFollowedOnlyWhereTheSourceAllowsIt() throws {
    #expect(
      Self.refusal { try Self.next("https://evil.example/x") }.contains("leaves the site ncaa.org for evil.example"))
    #expect(try Self.next("https://cdn.example.com/x", allowing: ["cdn.example.com"]).host == "cdn.example.com")
    #expect(try Self.next("https://a.example.com/x", allowing: ["example.com"]).host == "a.example.com")
  }

  @Test func aPublicTargetNeverReachesALoopbackPrivateOrLinkLocalAddress() {
    for location in [
      "http://127.0.0.1/x", "http://localhost:8080/", "http://10.0.0.5/admin", "http://192.168.1.1/",
      "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[fe80::1]/",
    ] {
      let reason = Self.refusal { try Self.next(location, allowing: ["127.0.0.1", "10.0.0.5", "169.254.169.254"]) }
      #expect(reason.contains("which a public target may not reach"), "\(location): \(reason)")
    }
  }

  @Test func aLoopbackTargetStaysOnItsHostUnlessAllowed() throws {
    let target = "http://127.0.0.1:8080/a"
    #expect(try Self.next("/b", from: target, target: target).url == "http://127.0.0.1:8080/b")
    #expect(
      Self.refusal { try Self.next("http://127.0.0.2:8080/a", from: target, target: target) }
        .contains("leaves the site 127.0.0.1 for 127.0.0.2"))
    #expect(
      try Self.next("http://127.0.0.2:8080/a", from: target, target: target, allowing: ["127.0.0.2"]).host
        == "127.0.0.2")
    #expect(
      Self.refusal { try Self.next("http://10.0.0.1/", from: target, target: target, allowing: ["10.0.0.1"]) }
        .contains("private address"))
  }

  @Test func hostileLocationsAreRefusedWithAReason() {
    let cases: [(String?, String)] = [
      (nil, "has no Location"), ("", "has no Location"),
      ("http://stats.ncaa.org:99999/x", "goes nowhere usable"), ("http://stats.ncaa.org:0/x", "goes nowhere usable"),
      ("ftp://stats.ncaa.org/x", "goes nowhere usable"), ("http://[::1:99999]/", "goes nowhere usable"),
      ("/" + String(repeating: "a", count: 100_000), "is not a URL"),
    ]
    for (location, reason) in cases {
      let refusal = Self.refusal { try Self.next(location) }
      #expect(refusal.contains(reason), "\(location?.prefix(40) ?? "nil"): \(refusal)")
      #expect(refusal.utf8.count < 1_000, "a long Location is not echoed whole")
    }
  }

  @Test func loopsAndTooManyHopsEnd() {
    let target = "https://stats.ncaa.org/a"
    #expect(Self.refusal { try Self.next("/a", from: target, target: target) }.contains("a redirect loop"))
    let visited = (0...5).map { "https://stats.ncaa.org/\($0)" }
    #expect(
      Self.refusal { try Self.next("/next", target: target, visited: visited, hops: 5) }
        .contains("too many redirects (more than 5)"))
  }
}
