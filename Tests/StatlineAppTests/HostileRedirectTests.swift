import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineEngine
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

/// The whole job against a site whose every answer is a hostile redirect (a port out of range
/// used to trap the process inside the HTTP client): the job keeps polling its other target,
/// follows a redirect within the site, and follows none that leaves it.
@Suite(.serialized) struct HostileRedirectTests {
  static func hostileAnswers(other: LoopbackServer) -> [LoopbackServer.Behavior] {
    [
      .redirect("/moved/640301.xml"),  // within the site: followed and stored
      .redirect("http://127.0.0.1:99999/x"),
      .respond(status: 302, headers: ["Location": ""]),
      .respond(status: 301, headers: ["Location": "//127.0.0.2:\(other.port)/stolen"]),
      .respond(status: 307, headers: ["Location": "/loop"]),
      .redirect("/" + String(repeating: "a", count: 60_000)),
      .respond(status: 308, headers: ["Location": "http://[::1]:99999/"]),
      .redirect("javascript:alert(1)"),
      .respond(
        status: 302, headers: ["Location": "http://127.0.0.1:0/", "X-Junk": String(repeating: "j", count: 60_000)]),
      .redirect("http://127.0.0.1:65536/"),
    ]
  }

  @Test func hostileRedirectsFailTheirTargetAndTheJobPollsOn() async throws {
    let day = DemoGameDay()
    let minute = 15.0 * 60
    let good = try #require(day.xml(eventId: "640301", at: minute))
    let healthy = try await LoopbackServer.start(host: "127.0.0.2") { request in day.route(request, seconds: minute) }
    let served = Counter()
    let answers = Locked<[LoopbackServer.Behavior]>([])
    let hostile = try await LoopbackServer.start { request in
      switch request.uri {
      case "/robots.txt": return .respond(status: 404)
      case "/moved/640301.xml": return .ok(good)
      case "/loop": return .redirect("/loop")
      default:
        let index = served.next()
        return answers.withLock { $0[min(index, $0.count - 1)] }
      }
    }
    answers.withLock { $0 = Self.hostileAnswers(other: healthy) }
    defer {
      Task {
        try? await healthy.stop()
        try? await hostile.stop()
      }
    }
    var config = JobConfig()
    config.targets = [
      .init(url: "\(healthy.baseURL)/archive/640302.xml", parser: "statbroadcast-game-xml", role: .game),
      .init(url: "\(hostile.baseURL)/archive/640301.xml", parser: "statbroadcast-game-xml", role: .game),
    ]
    config.policy.live = .milliseconds(200)
    config.policy.failureBase = .milliseconds(200)
    config.policy.failureCap = .milliseconds(200)
    config.policy.jitter = 0
    config.politeness.retry.maxRetries = 0
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-hostile-\(UUID()).sqlite").path
    let log = Polls()
    let runtime = try await JobRuntime(config: config, storePath: path, clock: ContinuousClock(), report: log.append)
    let job = Task { try await runtime.scheduler.run(configured: runtime.targets) }
    let wanted = Self.hostileAnswers(other: healthy).count
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(100))
      let polls = log.polls
      if polls.filter({ $0.target.url.hasPrefix(hostile.baseURL) }).count >= wanted,
        polls.filter({ $0.target.url.hasPrefix(healthy.baseURL) }).count >= 8
      {
        break
      }
    }
    job.cancel()
    _ = try? await job.value
    await runtime.shutdown()

    let hostilePolls = log.polls.filter { $0.target.url.hasPrefix(hostile.baseURL) }
    try #require(hostilePolls.count >= wanted, "every hostile answer was met: \(hostilePolls.count) polls")
    #expect(hostilePolls.first?.outcome == .stored, "a redirect within the site is followed")
    let refused = hostilePolls.dropFirst().prefix(wanted - 1)
    #expect(refused.allSatisfy { $0.outcome == .failed }, "\(refused.map { "\($0.outcome) \($0.error ?? "")" })")
    let errors = refused.map { $0.error ?? "" }
    #expect(errors[0].contains("the redirect goes nowhere usable") && errors[0].contains("99999"), "\(errors[0])")
    #expect(errors[1].contains("the redirect has no Location"), "\(errors[1])")
    #expect(errors[2].contains("leaves the site 127.0.0.1 for 127.0.0.2"), "\(errors[2])")
    #expect(errors[3].contains("a redirect loop"), "\(errors[3])")
    #expect(errors.allSatisfy { $0.utf8.count < 2_000 }, "no answer is echoed whole")
    #expect(!healthy.requests.contains { $0.uri == "/stolen" }, "no request left the site")

    let healthyPolls = log.polls.filter { $0.target.url.hasPrefix(healthy.baseURL) }
    #expect(healthyPolls.count >= 8, "the other target keeps its cadence: \(healthyPolls.count) polls")
    #expect(healthyPolls.allSatisfy { $0.outcome == .stored || $0.outcome == .unchanged })
    let store = try SQLiteStore(path: path)
    let games = try await store.sourceGames().map(\.id)
    #expect(Set(games) == ["statbroadcast:640301", "statbroadcast:640302"])
  }

  @Test func aRedirectToAHostTheSourceAllowsAsksThatHostsRobotsTxt() async throws {
    let day = DemoGameDay()
    let minute = 15.0 * 60
    let other = try await LoopbackServer.start(host: "127.0.0.2") { request in
      request.uri == "/robots.txt" ? .ok("User-agent: *\nDisallow: /private/\n") : day.route(request, seconds: minute)
    }
    let moving = try await LoopbackServer.start { request in
      switch request.uri {
      case "/robots.txt": .respond(status: 404)
      case "/archive/640301.xml": .redirect("\(other.baseURL)/archive/640301.xml")
      default: .redirect("\(other.baseURL)/private/640302.xml")
      }
    }
    defer {
      Task {
        try? await other.stop()
        try? await moving.stop()
      }
    }
    var config = JobConfig()
    config.targets = [
      .init(url: "\(moving.baseURL)/archive/640301.xml", parser: "statbroadcast-game-xml", role: .game),
      .init(url: "\(moving.baseURL)/archive/640302.xml", parser: "statbroadcast-game-xml", role: .game),
    ]
    config.sources["statbroadcast", default: .init()].redirectHosts = ["127.0.0.2"]
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-moved-\(UUID()).sqlite").path
    let runtime = try await JobRuntime(config: config, storePath: path, clock: ContinuousClock(), report: { _ in })
    let reports = try await runtime.scheduler.runOnce(configured: runtime.targets)
    await runtime.shutdown()
    let byURL = Dictionary(uniqueKeysWithValues: reports.map { ($0.target.url, $0) })
    let stored = try #require(byURL["\(moving.baseURL)/archive/640301.xml"])
    #expect(stored.outcome == .stored, "\(stored.error ?? "")")
    let disallowed = try #require(byURL["\(moving.baseURL)/archive/640302.xml"])
    #expect(disallowed.outcome == .blocked && disallowed.error?.contains("robots.txt disallows") == true)
    #expect(other.requests.filter { $0.uri == "/robots.txt" }.count == 1, "the new host's robots.txt, once")
    #expect(!other.requests.contains { $0.uri.hasPrefix("/private/") })
  }
}
