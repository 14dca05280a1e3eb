import Foundation
import StatlineApp
import StatlineCanonical
import StatlineCore
import StatlineTesting
import Testing

@Suite struct JobConfigTests {
  static let full = """
    store: data/scores.sqlite
    targets:
      - url: https://www.statbroadcast.com/events/schedule.php?gid=msu
      - url: https://archive.statbroadcast.com/640112.xml
        role: game
    sources:
      statbroadcast:
        options:
          gameURL: https://archive.statbroadcast.com/{id}.xml
        headers:
          Referer: https://stats.statbroadcast.com/broadcast/
        policy:
          idle: 10m
    policy:
      live: 20s
      finalPolls: 2
      jitter: 0.05
    politeness:
      userAgent: "ScoreApp/2.0 (+https://example.edu/bot)"
      spacing: 100ms
      retries: 2
      hosts:
        stats.ncaa.org: { concurrency: 1, spacing: 6s }
    http:
      timeout: 15s
      maxBodySize: 8MB
    captures:
      keep: 100
      maxAge: 7d
    summaryEvery: 5m
    """

  @Test func aFullConfigurationReadsEveryKey() throws {
    let config = try JobConfigReader.parse(Self.full)
    #expect(config.store == "data/scores.sqlite")
    #expect(config.targets.map(\.url).count == 2 && config.targets[1].role == .game)
    #expect(config.sources["statbroadcast"]?.options["gameURL"] == "https://archive.statbroadcast.com/{id}.xml")
    #expect(config.sources["statbroadcast"]?.headers["Referer"] == "https://stats.statbroadcast.com/broadcast/")
    #expect(config.sources["statbroadcast"]?.policy?.idle == .seconds(600))
    #expect(config.policy.live == .seconds(20) && config.policy.finalPolls == 2 && config.policy.jitter == 0.05)
    #expect(config.politeness.userAgent.hasPrefix("ScoreApp/2.0"))
    #expect(config.politeness.hostLimits.spacing == .milliseconds(100) && config.politeness.retry.maxRetries == 2)
    #expect(config.politeness.hostOverrides["stats.ncaa.org"]?.spacing == .seconds(6))
    #expect(config.http.requestTimeout == .seconds(15) && config.http.maximumBodyBytes == 8 << 20)
    #expect(config.capturesKeep == 100 && config.capturesMaxAge == .seconds(7 * 86400))
    #expect(config.summaryEvery == .seconds(300))
    let targets = try config.resolvedTargets(try BuiltinPlugins.registry(config.pluginSettings))
    #expect(targets.map(\.parser) == ["statbroadcast-event-calendar", "statbroadcast-game-xml"])
    #expect(targets.map(\.role) == [.discovery, .game], "a parser that discovers games makes a discovery target")
  }

  @Test(arguments: [
    ("targets: []\nstorr: x.sqlite", "storr (line 2): unknown key 'storr'"),
    ("targets:\n  - url: https://a.edu/x\npolicy:\n  live: soon", "policy.live (line 4): 'soon' is not a duration"),
    ("targets:\n  - url: https://a.edu/x\n    role: boxscore", "targets[0].role (line 3): unknown role"),
    ("targets:\n  - url: ftp://a.edu/x", "targets[0].url (line 2): 'ftp://a.edu/x' is not a usable address"),
    ("targets:\n  - url: https://a.edu:99999/x", "targets[0].url (line 2): 'https://a.edu:99999/x' is not a usable"),
    (
      "targets:\n  - url: http://169.254.169.254/latest/meta-data/",
      "targets[0].url (line 2): 169.254.169.254 is a link-local"
    ),
    ("targets:\n  - url: https://a.edu/x\npolicy:\n  live: 0s", "policy.live (line 4): must be longer than zero"),
    ("targets:\n  - url: https://me:pw@a.edu/x", "targets[0].url (line 2): the address carries credentials"),
    ("targets:\n  - url: https://a.edu/x\npolicy:\n  idle: 0", "policy.idle (line 4): must be longer than zero"),
    (
      "targets:\n  - url: https://a.edu/x\nsources:\n  s:\n    policy:\n      failureBase: 0ms",
      "sources.s.policy.failureBase (line 6): must be longer than zero"
    ),
    ("store: x.sqlite", "targets (line 1): the job has no targets"),
    ("targets:\n  - url: https://a.edu/x\npolicy:\n  jitter: 2", "policy.jitter (line 4): must be a fraction"),
    (
      "targets:\n  - url: https://a.edu/x\nhttp:\n  maxBodySize: lots",
      "http.maxBodySize (line 4): 'lots' is not a size"
    ),
    ("targets: x: y: z", "the file is not valid YAML"),
  ])
  func mistakesNameTheKeyTheLineAndTheExpectedForm(_ yaml: String, _ message: String) {
    let error = #expect(throws: StatlineError.self) { try JobConfigReader.parse(yaml, file: "statline.yml") }
    #expect(error?.kind == .configuration)
    #expect(error?.reason.contains(message) == true, "\(error?.reason ?? "")")
    #expect(error?.description.contains("statline.yml") == true)
  }

  @Test func aLinkLocalTargetNeedsItsOwnConsentAndRedirectHostsAreRead() throws {
    let config = try JobConfigReader.parse(
      """
      targets:
        - url: http://169.254.10.10/scores.xml
          allowLinkLocal: true
      sources:
        statbroadcast:
          redirectHosts: [Stats.Example.edu, cdn.example.com]
      http:
        maxRedirects: 2
        privateHosts: [Scores.Lab.Internal]
      """)
    #expect(config.http.privateHosts == ["scores.lab.internal"])
    #expect(config.targets.map(\.url) == ["http://169.254.10.10/scores.xml"])
    #expect(config.sources["statbroadcast"]?.redirectHosts == ["stats.example.edu", "cdn.example.com"])
    #expect(config.politeness.redirects.maximumHops == 2)
  }

  @Test func aFiftyMegabyteAddressIsNotEchoed() {
    let yaml = "targets:\n  - url: https://a.edu/" + String(repeating: "x", count: 50 << 20) + "\n"
    let error = #expect(throws: StatlineError.self) { try JobConfigReader.parse(yaml) }
    #expect((error?.description.utf8.count ?? .max) < 2_000)
  }

  @Test func theExampleConfigurationLoadsAndEveryTargetHasItsParser() throws {
    let config = try JobConfigReader.load(file: PackageRoot.file("statline.example.yml").path)
    let targets = try config.resolvedTargets(try BuiltinPlugins.registry(config.pluginSettings))
    #expect(
      targets.map(\.parser) == [
        "statbroadcast-event-calendar", "statbroadcast-event-calendar", "ncaa-gql-contests", "ncaa-stats-team-list",
        "espn-scoreboard", "ncaa-com-rankings", "espn-rankings",
      ])
    #expect(targets.dropLast(2).allSatisfy { $0.role == .discovery })
    #expect(targets.suffix(2).allSatisfy { $0.role == .poll }, "a rankings page is a poll target unless it says")
    #expect(config.primaryPolls == [.lacrosseMen: "ncaa:com-lacrosse-men-d1-inside-lacrosse"])
    #expect(config.teamAliases == ["Loyola (MD)": "369"])
    #expect(config.logos.enabled && config.logos.keeper.refreshAfter == 7 * 86_400)
    #expect(config.sources["ncaa"]?.options["hash.GetContests_web"]?.count == 64)
  }

  @Test func sportsNameTheGamesThatGetTargetsAndAnUnknownOneIsAnError() throws {
    let config = try JobConfigReader.parse(
      "targets:\n  - url: https://example.edu/\nsports: [lacrosse-men, basketball-women]")
    #expect(config.sports == [.lacrosseMen, .basketballWomen])
    #expect(try JobConfigReader.parse("targets:\n  - url: https://example.edu/").sports == nil, "default: all")
    let error = #expect(throws: StatlineError.self) {
      try JobConfigReader.parse("targets:\n  - url: https://example.edu/\nsports: [lacrosse]")
    }
    #expect(error?.description.contains("sports[0]") == true && error?.description.contains("'lacrosse'") == true)
  }

  @Test func rankingsPrimaryNamesAKnownSportAndAPollId() throws {
    let base = "targets:\n  - url: https://example.edu/\nrankings:\n  primary:\n"
    #expect(
      try JobConfigReader.parse(base + "    football: espn:college-football-ap").primaryPolls == [
        .football: "espn:college-football-ap"
      ])
    let sport = #expect(throws: StatlineError.self) { try JobConfigReader.parse(base + "    lacrosse: espn:x") }
    #expect(sport?.description.contains("rankings.primary.lacrosse") == true, "\(String(describing: sport))")
    let poll = #expect(throws: StatlineError.self) {
      try JobConfigReader.parse(base + "    football: espn:college-football-ap@2026/t2-w05")
    }
    #expect(poll?.description.contains("is not a poll id") == true, "a week's id is not a poll's")
  }

  @Test func servesPrimaryPollIsASportAndAPollAndAMistakeStopsItBeforeTheStoreOpens() throws {
    let run = try CommandRunner.run(["serve", "--store", "/nonexistent/x.sqlite", "--primary-poll", "lacrosse=ncaa:x"])
    #expect(run.status != 0 && run.stderr.contains("--primary-poll 'lacrosse=ncaa:x'"), "\(run.stderr)")
  }

  @Test func servesReplayLimitIsInRangeAndAMistakeStopsItBeforeTheStoreOpens() throws {
    for value in ["0", "10001"] {
      let run = try CommandRunner.run(["serve", "--store", "/nonexistent/x.sqlite", "--max-replays", value])
      #expect(run.status != 0 && run.stderr.contains("--max-replays \(value) is outside 1 to 10,000"), "\(run.stderr)")
    }
  }

  @Test func mergePrecedenceOrdersTheFeedsAndNamesEachOnce() throws {
    let config = try JobConfigReader.parse(
      "targets:\n  - url: https://example.edu/\nmerge:\n  precedence: [espn, statcrew]")
    #expect(config.mergePrecedence == [SourceFeed("espn"), SourceFeed("statcrew")])
    #expect(try JobConfigReader.parse("targets:\n  - url: https://example.edu/").mergePrecedence == nil)
    let twice = #expect(throws: StatlineError.self) {
      try JobConfigReader.parse("targets:\n  - url: https://example.edu/\nmerge:\n  precedence: [espn, espn]")
    }
    #expect(twice?.description.contains("merge.precedence") == true && twice?.description.contains("twice") == true)
    #expect(throws: StatlineError.self) {
      try JobConfigReader.parse("targets:\n  - url: https://example.edu/\nmerge:\n  precedence: espn")
    }
  }

  @Test func aTargetNoParserClaimsIsAnError() throws {
    let config = try JobConfigReader.parse("targets:\n  - url: https://example.edu/scores")
    let error = #expect(throws: StatlineError.self) {
      try config.resolvedTargets(try BuiltinPlugins.registry(config.pluginSettings))
    }
    #expect(error?.reason.contains("no parser claims https://example.edu/scores") == true)
  }
}
