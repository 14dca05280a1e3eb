import StatlineApp
import StatlineTesting
import Testing

@Suite struct NCAAGoldenTests {
  @Test(arguments: GoldenCases.cases(plugin: "NCAA"))
  func golden(_ fixture: FixtureCase) {
    GoldenCases.expectPasses(fixture)
  }
}
