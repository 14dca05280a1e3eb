import GenericHTMLSource
import StatlineFixtures
import StatlineTesting
import Testing

@Suite struct GenericHTMLGoldenTests {
  static let goldens = GoldenCases([GenericHTMLSource.plugin])

  @Test(arguments: Self.goldens.cases(plugin: "GenericHTML"))
  func golden(_ fixture: FixtureCase) {
    Self.goldens.expectPasses(fixture)
  }

  @Test func everyBundledConfigHasCases() {
    let parsers = Set(Self.goldens.cases(plugin: "GenericHTML").map(\.parser))
    #expect(parsers == ["ncaa-team-schedule", "statbroadcast-calendar"])
  }
}
