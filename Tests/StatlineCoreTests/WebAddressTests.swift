import Foundation
import StatlineCore
import Testing

@Suite struct WebAddressTests {
  @Test(arguments: [
    ("http://127.0.0.1:99999/x", "the port '99999'"),
    ("http://127.0.0.1:0/x", "the port '0'"),
    ("http://127.0.0.1:-1/x", "is not a usable address"),
    ("http://host:notaport/x", "not a"),
    ("ftp://example.com/x", "the scheme is 'ftp'"),
    ("javascript:alert(1)", "the scheme is 'javascript'"),
    ("http:///x", "no host"),
    ("http://exa mple.com/", "white space"),
    ("http://2130706433/", "not a host name or address"),
    ("http://127.1/", "not a host name or address"),
    ("http://0x7f.1/", "not a host name or address"),
    ("", "not a URL"),
  ])
  func unusableAddressesAreRefusedWithTheReason(_ text: String, _ reason: String) {
    #expect(throws: StatlineError.self) { try WebAddress(text) }
    do {
      _ = try WebAddress(text)
    } catch {
      #expect(error.kind == .configuration)
      #expect(error.reason.contains(reason), "\(error.reason)")
    }
  }

  @Test func aUsableAddressKeepsItsPartsAndLosesItsCredentials() throws {
    let address = try WebAddress("HTTPS://user:p%40ss@Stats.NCAA.org:8443/contests/1?x=1")
    #expect(address.scheme == "https" && address.host == "stats.ncaa.org" && address.port == 8443)
    #expect(address.user == "user" && address.password == "p@ss")
    #expect(!address.url.contains("user") && !address.url.contains("ss@"))
    #expect(address.url.hasSuffix("/contests/1?x=1"))
    #expect(address.basicAuthorization == "Basic " + Data("user:p@ss".utf8).base64EncodedString())
    #expect(try WebAddress("http://[::1]:8080/").effectivePort == 8080)
    #expect(try WebAddress("https://a.edu/").effectivePort == 443)
  }

  @Test func aLongAddressIsRefusedWithoutBeingEchoed() {
    let long = "http://a.edu/" + String(repeating: "x", count: 50 << 20)
    do {
      _ = try WebAddress(long)
      Issue.record("a 50 MB address must be refused")
    } catch {
      #expect(error.description.utf8.count < 1_000, "\(error.description.utf8.count) bytes")
      #expect(error.reason.contains("bytes long"))
    }
  }

  @Test(arguments: [
    ("127.0.0.1", WebAddress.Reach.loopback), ("localhost", .loopback), ("api.localhost", .loopback),
    ("[::1]", .loopback), ("0.0.0.0", .loopback), ("10.1.2.3", .privateNetwork), ("172.16.0.1", .privateNetwork),
    ("172.31.255.255", .privateNetwork), ("172.32.0.1", .public), ("192.168.1.1", .privateNetwork),
    ("100.64.0.1", .privateNetwork), ("[fd00::1]", .privateNetwork), ("169.254.169.254", .linkLocal),
    ("[fe80::1]", .linkLocal), ("[::ffff:10.0.0.1]", .privateNetwork), ("8.8.8.8", .public),
    ("stats.ncaa.org", .public),
  ])
  func theReachOfAHostIsReadFromItsAddress(_ host: String, _ reach: WebAddress.Reach) throws {
    #expect(try WebAddress("http://\(host)/x").reach == reach)
  }

  @Test func theSiteIsTheRegistrableHost() throws {
    #expect(try WebAddress("https://stats.ncaa.org/").site == "ncaa.org")
    #expect(try WebAddress("https://www.ncaa.com/").site == "ncaa.com")
    #expect(try WebAddress("https://ncaa.com/").site == "ncaa.com")
    #expect(try WebAddress("https://www.bbc.co.uk/").site == "bbc.co.uk")
    #expect(try WebAddress("http://127.0.0.2:8080/").site == "127.0.0.2")
  }

  @Test func locationsResolveAgainstTheHopBefore() throws {
    let base = try WebAddress("http://127.0.0.1:8080/archive/1.xml")
    #expect(try base.resolving("/moved/1.xml").url == "http://127.0.0.1:8080/moved/1.xml")
    #expect(try base.resolving("2.xml").url == "http://127.0.0.1:8080/archive/2.xml")
    #expect(try base.resolving("//127.0.0.2:9/x").url == "http://127.0.0.2:9/x")
    for bad in ["", "   ", "http://127.0.0.1:99999/x", "gopher://x/", "http://[::1:99999]/"] {
      #expect(throws: StatlineError.self, "\(bad)") { try base.resolving(bad) }
    }
  }

  @Test func credentialsAreHiddenEvenWhereNoParserReadsTheAddress() {
    #expect(
      WebAddress.redacted("postgres://statline:pw@host:notaport/db") == "postgres://statline:***@host:notaport/db")
    #expect(WebAddress.redacted("http://user:pass@host/hook") == "http://user:***@host/hook")
    #expect(WebAddress.redacted("http://token@host/hook") == "http://***@host/hook")
    #expect(WebAddress.redacted("http://host/path@x") == "http://host/path@x")
    #expect(WebAddress.redacted("no address") == "no address")
    let long = "http://user:" + String(repeating: "p", count: 5_000) + "@host/"
    #expect(!WebAddress.shown(long).contains("ppp"), "hidden before it is cut")
  }

  /// A secret in a query (`?token=…`) is hidden wherever the URL is shown; other parameters stay.
  @Test(arguments: [
    ("https://hooks.example/h?token=abc123&team=duke", "https://hooks.example/h?token=***&team=duke"),
    ("https://u:p@hooks.example/h?api_key=K1#part", "https://u:***@hooks.example/h?api_key=***#part"),
    ("https://hooks.example/h?Access-Token=a&SIG=b&x", "https://hooks.example/h?Access-Token=***&SIG=***&x"),
    (
      "postgres://statline:pw@127.0.0.1:5432/db?sslmode=disable&password=pw2",
      "postgres://statline:***@127.0.0.1:5432/db?sslmode=disable&password=***"
    ),
    ("POST https://hooks.example/h?secret=s3: HTTP 500", "POST https://hooks.example/h?secret=***: HTTP 500"),
    ("https://hooks.example/plain", "https://hooks.example/plain"),
  ])
  func secretQueryValuesAreHidden(_ text: String, _ shown: String) {
    #expect(WebAddress.redacted(text) == shown)
  }
}
