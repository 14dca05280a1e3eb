import StatlineApp
import StatlineTesting
import Testing

@Suite struct GenericHTMLGoldenTests {
  @Test(arguments: GoldenCases.cases(plugin: "GenericHTML"))
  func golden(_ fixture: FixtureCase) {
    GoldenCases.expectPasses(fixture)
  }

  @Test func everyBundledConfigHasCases() {
    let parsers = Set(GoldenCases.cases(plugin: "GenericHTML").map(\.parser))
    #expect(parsers == ["ncaa-team-schedule", "statbroadcast-calendar"])
  }
}
