import Foundation
import StatlineCore
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Team logos end to end (issue 54): `statline run --serve` with `logos.enabled` polls an ESPN
/// scoreboard served on 127.0.0.1, downloads the logos it shows from the same loopback host, and
/// serves them at `/v1/teams/{id}/logo`; a logo the host refuses is named in the log.
@Suite(.serialized) struct LogoJobTests {
  static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 7])

  @Test func runDownloadsThePagesLogosAndServesThem() async throws {
    let board = try String(
      contentsOf: PackageRoot.file("Fixtures/ESPN/espn-scoreboard/mens-lacrosse-day/page.json"), encoding: .utf8)
    let server = try await LoopbackServer.start { request in
      let host = request.headers["host"] ?? "127.0.0.1"
      switch request.uri {
      case "/scoreboard":
        return .ok(
          board.replacingOccurrences(of: "https://a.espncdn.com/i/teamlogos/ncaa/500/", with: "http://\(host)/logos/"),
          headers: ["Content-Type": "application/json"])
      case "/logos/153.png":
        return .bytes(status: 200, headers: ["Content-Type": "image/png", "ETag": "\"u1\""], body: Self.png)
      case let uri where uri.hasPrefix("/logos/"):
        // An error page sent as an image: refused, never served.
        return .respond(status: 200, headers: ["Content-Type": "image/png"], body: "<html>Access denied</html>")
      default: return .respond(status: 404, body: "not found")
      }
    }
    defer { Task { try? await server.stop() } }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-logos-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("statline.yml")
    try """
    store: \(folder.appendingPathComponent("store.sqlite").path)
    targets:
      - url: \(server.baseURL)/scoreboard
        parser: espn-scoreboard
    logos:
      enabled: true
      every: 1s
    """.write(to: config, atomically: true, encoding: .utf8)

    let (process, errors, started, scoreboard) = try JobCommandTests.runServing(config)
    var log = started
    defer { if process.isRunning { process.terminate() } }
    let base = String(try #require(scoreboard.components(separatedBy: "/v1/").first))

    // North Carolina (ESPN 153) is team:457.
    var status = 0
    var body = Data()
    var headers: [AnyHashable: Any] = [:]
    let deadline = ContinuousClock.now + .seconds(60)
    while status != 200, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(200))
      let (data, response) = try await URLSession.shared.data(
        from: try #require(URL(string: base + "/v1/teams/team:457/logo")))
      status = (response as? HTTPURLResponse)?.statusCode ?? 0
      headers = (response as? HTTPURLResponse)?.allHeaderFields ?? [:]
      body = data
    }
    #expect(status == 200 && body == Self.png)
    #expect(headers["Content-Type"] as? String == "image/png")
    let (teamData, _) = try await URLSession.shared.data(from: try #require(URL(string: base + "/v1/teams/team:457")))
    let team = (try JSONSerialization.jsonObject(with: teamData) as? [String: Any])?["team"] as? [String: Any]
    #expect(team?["logo"] as? String == "/v1/teams/team:457/logo")

    process.terminate()
    log += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(log)")
    #expect(log.contains("logo stored"), "\(log)")
    #expect(log.contains("logo not fetched") && log.contains("not a PNG, JPEG, GIF, WebP or SVG"), "\(log)")
    #expect(
      server.requests.contains {
        $0.uri == "/logos/153.png" && $0.headers["user-agent"]?.hasPrefix("Statline/") == true
      })
  }
}
