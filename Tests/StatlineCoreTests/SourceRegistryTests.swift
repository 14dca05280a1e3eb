import StatlineCore
import Testing

@Suite struct SourceRegistryTests {
  let registry = try! SourceRegistry(plugins: [
    plugin("site", [entry("site-box", source: "site", urls: ["^https://site\\.test/box/"], sniff: "boxscore")]),
    plugin(
      "generic",
      [
        entry("generic-box", source: "generic", urls: ["^https://site\\.test/box/"], priority: 10, sniff: "boxscore"),
        entry("generic-a", source: "generic", sniff: "twin"),
        entry("generic-b", source: "generic", sniff: "twin"),
      ]),
  ])

  @Test func duplicatePluginIdsAreRefused() {
    #expect(throws: StatlineError.self) {
      try SourceRegistry(plugins: [plugin("a", []), plugin("a", [])])
    }
  }

  @Test func duplicateParserIdsAreRefusedNamingBothOwners() {
    do {
      _ = try SourceRegistry(plugins: [plugin("a", [entry("p")]), plugin("b", [entry("p")])])
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .configuration)
      #expect(error.reason.contains("'p' is registered twice (by 'a' and 'b')"))
    }
  }

  @Test func aPluginThatFailsToLoadNamesItself() {
    let broken = SourcePlugin(id: "broken", name: "b", folder: "B") { _ in
      throw StatlineError(.configuration, "bad config")
    }
    #expect(throws: StatlineError(.configuration, "bad config", source: "broken")) {
      try SourceRegistry(plugins: [broken])
    }
  }

  @Test func urlMatchPicksTheHighestPriority() throws {
    #expect(try registry.select(for: page("x", url: "https://site.test/box/1")).id == "site-box")
    #expect(try registry.select(for: page("x", url: "https://site.test/box/1"), source: "generic").id == "generic-box")
  }

  @Test func contentSniffingIsTheFallback() throws {
    #expect(try registry.select(for: page("<div>boxscore</div>")).id == "site-box")
    #expect(try registry.select(for: page("<div>boxscore</div>", url: "https://elsewhere.test/")).id == "site-box")
  }

  @Test func aTieIsAnErrorNamingTheCandidates() {
    do {
      _ = try registry.select(for: page("<p>twin</p>"))
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .ambiguousParser)
      #expect(error.reason.contains("generic-a, generic-b"))
    }
  }

  @Test func theNamedParserWins() throws {
    #expect(try registry.select(for: page("<p>twin</p>"), parser: "generic-b").id == "generic-b")
  }

  @Test func unknownNamesAndUnclaimedPagesAreErrors() {
    #expect(throws: StatlineError.self) { try registry.select(for: page("x"), parser: "nope") }
    #expect(throws: StatlineError.self) { try registry.select(for: page("x"), source: "nope") }
    do {
      _ = try registry.select(for: page("nothing to see"))
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .noParser)
      #expect(error.hint?.contains("--url") == true)
    }
  }
}
