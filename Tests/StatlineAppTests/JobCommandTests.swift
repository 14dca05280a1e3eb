import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `statline once`, `status`, `run` and `demo`, run as a user runs them, against the demo's
/// game day served on 127.0.0.1.
@Suite(.serialized) struct JobCommandTests {
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("statline-job-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A server playing the game day frozen at `minute`.
  static func server(minute: Double) async throws -> LoopbackServer {
    let day = DemoGameDay()
    return try await LoopbackServer.start { request in day.route(request, seconds: minute * 60) }
  }

  static func config(_ server: LoopbackServer, in folder: URL, extra: String = "") throws -> URL {
    let file = folder.appendingPathComponent("statline.yml")
    try """
    store: \(folder.appendingPathComponent("store.sqlite").path)
    targets:
      - url: \(server.baseURL)\(DemoGameDay.calendarPath)
        parser: statbroadcast-event-calendar
    sources:
      statbroadcast:
        options:
          gameURL: \(server.baseURL)/archive/{id}.xml
    \(extra)
    """.write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  @Test func onceStoresTheLiveGamesThenFindsNothingDue() async throws {
    let folder = try Self.folder()
    let server = try await Self.server(minute: 15)
    defer { Task { try? await server.stop() } }
    let config = try Self.config(server, in: folder)
    let first = try CommandRunner.run(["once", "--config", config.path])
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    #expect(first.stdout.contains("5 polls, 0 failed"), "the calendar and the four games under way")
    #expect(first.stdout.contains("/archive/640301.xml") && first.stdout.contains("/archive/640302.xml"))
    #expect(first.stdout.contains("/archive/640304.xml") && first.stdout.contains("/archive/640305.xml"))
    #expect(!first.stdout.contains("/archive/640303.xml"), "a game that has not started gets no target")
    let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path)
    let games = try await store.changes(since: 0, limit: 10_000).compactMap { change -> Game? in
      if case .game(let game) = change.record { game } else { nil }
    }
    #expect(
      Set(games.flatMap { $0.sources ?? [] }) == [
        "statbroadcast:640301", "statbroadcast:640302", "statbroadcast:640303", "statbroadcast:640304",
        "statbroadcast:640305",
      ])
    #expect(games.count == 5, "one canonical game each")
    #expect(Set(games.map(\.sport)) == [.lacrosseMen, .lacrosseWomen, .basketballMen, .baseball])
    #expect(games.first { $0.sources == ["statbroadcast:640301"] }?.status == .live)

    let again = try CommandRunner.run(["once", "--config", config.path])
    #expect(again.status == 0)
    #expect(again.stdout.contains("nothing was due"), "a restart resumes the schedule instead of polling again")

    let status = try CommandRunner.run(["status", "--store", folder.appendingPathComponent("store.sqlite").path])
    #expect(status.status == 0)
    #expect(status.stdout.contains("5 targets (5 live), 0 retired"), "\(status.stdout)")
    #expect(status.stdout.contains("127.0.0.1  closed"))
  }

  @Test func onceFailsWhenAPageCannotBeParsedAndKeepsACapture() async throws {
    let folder = try Self.folder()
    let server = try await LoopbackServer.start { request in
      request.uri == "/robots.txt"
        ? .respond(status: 404) : .ok("<lcgame><team vh=\"V\"", headers: ["Content-Type": "text/xml"])
    }
    defer { Task { try? await server.stop() } }
    let file = folder.appendingPathComponent("statline.yml")
    try """
    targets:
      - url: \(server.baseURL)/archive/640112.xml
        parser: statbroadcast-game-xml
    """.write(to: file, atomically: true, encoding: .utf8)
    let store = folder.appendingPathComponent("s.sqlite").path
    let output = try CommandRunner.run(["once", "--config", file.path, "--store", store])
    #expect(output.status == 1)
    #expect(output.stdout.contains("truncated page"), "\(output.stdout)")
    let captures = try CommandRunner.run(["captures", "list", "--store", store])
    #expect(captures.stdout.contains("/archive/640112.xml"))
  }

  /// `once` takes no leases: against a store that workers share it refuses to start, saying why,
  /// and touches nothing (the URL's server is never asked; the password is not printed).
  @Test func onceRefusesAPostgresStore() throws {
    let folder = try Self.folder()
    let file = folder.appendingPathComponent("statline.yml")
    try "targets:\n  - url: https://a.edu/x\n".write(to: file, atomically: true, encoding: .utf8)
    let output = try CommandRunner.run([
      "once", "--config", file.path, "--store", "postgres://statline:secret@127.0.0.1:1/statline",
    ])
    #expect(output.status == 64)
    #expect(output.stderr.contains("statline once polls without leases"), "\(output.stderr)")
    #expect(output.stderr.contains("statline run --store") && !output.stderr.contains("secret"))
  }

  @Test func aBadConfigurationStopsAtStartWithTheKey() throws {
    let folder = try Self.folder()
    let file = folder.appendingPathComponent("statline.yml")
    try "targets:\n  - url: https://a.edu/x\npolicy:\n  live: often\n".write(
      to: file, atomically: true, encoding: .utf8)
    let output = try CommandRunner.run(["run", "--config", file.path])
    #expect(output.status == 64)
    #expect(output.stderr.contains("policy.live (line 4): 'often' is not a duration"))
  }

  /// Starts `statline run --config … --serve 127.0.0.1:0` and reads its log until the read API,
  /// which comes up in the same process, says where: the process, its log pipe, the log so far
  /// and the scoreboard's URL.
  static func runServing(_ config: URL) throws -> (Process, Pipe, String, String) {
    let process = Process()
    process.executableURL = CommandRunner.executable
    process.arguments = ["run", "--config", config.path, "--serve", "127.0.0.1:0"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    var log = ""
    for _ in 0..<200 where !log.contains("/v1/scoreboard") {
      log += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
    }
    let url = try #require(
      log.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "=" }).first { $0.hasPrefix("http://127.0.0.1:") })
    return (process, errors, log, String(url))
  }

  @Test func runStopsCleanlyOnSIGTERM() async throws {
    let folder = try Self.folder()
    let server = try await Self.server(minute: 15)
    defer { Task { try? await server.stop() } }
    let config = try Self.config(server, in: folder, extra: "summaryEvery: 1s")
    let (process, errors, started, url) = try Self.runServing(config)
    var log = started
    let storePath = folder.appendingPathComponent("store.sqlite").path
    var stored = 0
    for _ in 0..<100 where stored < 5 {
      try await Task.sleep(for: .milliseconds(100))
      if FileManager.default.fileExists(atPath: storePath) {
        stored = (try? await SQLiteStore(path: storePath).targets().filter { $0.outcome == .stored }.count) ?? 0
      }
    }
    let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url + "?date=2026-03-07")))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    let board = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect((board?["games"] as? [Any])?.count == 5, "the API reads what the job stored: \(board ?? [:])")
    try await Task.sleep(for: .milliseconds(1200))
    process.terminate()  // SIGTERM: the job and the API stop together
    log += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(stored == 5)
    #expect(process.terminationStatus == 0, "\(log)")
    #expect(log.contains("statline run started") && log.contains("statline run stopped"))
    #expect(log.contains("targets live 5 / due 0 / idle 0"), "the periodic summary")
    #expect(try await SQLiteStore(path: storePath).integrityCheck() == "ok")
  }
}
