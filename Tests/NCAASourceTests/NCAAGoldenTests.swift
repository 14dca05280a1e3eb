import NCAASource
import StatlineFixtures
import StatlineTesting
import Testing

@Suite struct NCAAGoldenTests {
  static let goldens = GoldenCases([NCAASource.plugin])

  @Test(arguments: Self.goldens.cases(plugin: "NCAA"))
  func golden(_ fixture: FixtureCase) {
    Self.goldens.expectPasses(fixture)
  }
}
