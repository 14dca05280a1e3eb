import GenericHTMLSource
import StatlineCore
import Testing

/// Config mistakes are reported at load time with the key path, the line and the expected form.
@Suite struct ConfigReaderTests {
  static let valid = """
    id: demo-schedule
    namespace: demo
    match:
      urls: ['^https://demo\\.test/']
    games:
      rows: tr.game
      fields:
        id: { css: td.id, format: 'demo:{value}' }
        away.name: td.away
        home.name: td.home
    """

  func error(_ yaml: String) -> StatlineError? {
    do {
      _ = try ConfigReader.parse(yaml, file: "demo.yml")
      return nil
    } catch {
      return error
    }
  }

  @Test func aValidConfigLoads() throws {
    let config = try ConfigReader.parse(Self.valid, file: "demo.yml")
    #expect(config.id == "demo-schedule")
    #expect(config.games?.fields.map(\.name) == ["id", "away.name", "home.name"])
    #expect(config.games?.rows == .css("tr.game"))
    #expect(config.requireComplete)
  }

  @Test(arguments: [
    ("namespace: x\nmatch: {urls: [a]}\ngames: {fields: {id: a}}", "id", "the config has no 'id'"),
    (
      valid.replacingOccurrences(of: "namespace: demo", with: "namespace: demo\ncolour: red"), "config.colour (line 3)",
      "unknown key 'colour'"
    ),
    (
      valid.replacingOccurrences(of: "away.name", with: "away.nickname"), "games.fields.away.nickname (line 9)",
      "unknown field 'away.nickname'"
    ),
    (
      valid.replacingOccurrences(of: "'^https://demo\\.test/'", with: "'(unclosed'"), "match.urls[0] (line 4)",
      "invalid regular expression"
    ),
    (valid + "\n    date: { css: td.d, date: 'DD.MM' }", "games.fields.date.date (line 11)", "is not a date format"),
    (
      valid + "\n    date: { css: td.d, type: date }", "games.fields.date (line 11)",
      "has type date but no 'date' format"
    ),
    (valid + "\n    period: { css: td.p, add: 4 }", "games.fields.period (line 11)", "'add' needs type integer"),
    (valid + "\n    venue: { css: td.v, xpath: td }", "games.fields.venue (line 11)", "needs exactly one source"),
    (
      valid.replacingOccurrences(of: "format: 'demo:{value}'", with: "format: 'demo:{later}'"),
      "games.fields.id.format (line 8)", "refers to '{later}'"
    ),
    (
      valid.replacingOccurrences(of: "away.name: td.away", with: "team.name: td.away"), "games.fields",
      "mixes away./home. with team./opponent."
    ),
    (
      valid.replacingOccurrences(of: "match:\n  urls: ['^https://demo\\.test/']\n", with: ""), "match",
      "the config has no 'match' rule"
    ),
    ("id: x\nnamespace: y\nmatch: {contains: [z]}\n", "config", "the config yields no records"),
    ("id: Bad_Id\nnamespace: y", "id (line 1)", "is not a valid parser id"),
    ("- just\n- a list", "", "the config is empty or not a mapping"),
    ("id: [unclosed", "", "not valid YAML"),
  ])
  func mistakesNameTheKeyAndTheExpectedForm(_ yaml: String, _ context: String, _ reason: String) throws {
    let found = try #require(error(yaml))
    #expect(found.kind == .configuration)
    #expect(found.location == "demo.yml")
    #expect(found.reason.contains(reason), "\(found)")
    if !context.isEmpty { #expect(found.context == context, "\(found)") }
  }

  @Test func errorsSayWhatIsExpected() throws {
    let found = try #require(error(Self.valid + "\n    status: { css: td.s, type: colour }"))
    #expect(found.hint == "expected string, integer, date, boolean")
    #expect(found.description.contains("demo.yml"))
  }

  @Test func aMissingFileIsAnIOError() {
    #expect(throws: StatlineError.self) { try ConfigReader.load(file: "/nonexistent/statline.yml") }
  }
}

@Suite struct DateFormatTests {
  @Test(arguments: [
    ("MM/dd/yyyy", "02/01/2025", "2025-02-01"),
    ("MM-dd-yy", "11-01-25", "2025-11-01"),
    ("MM-dd-yy", "11-01-99", "1999-11-01"),
    ("M/d/yyyy", "2/15/2026", "2026-02-15"),
    ("MMM d, yyyy", "Feb 15, 2026", "2026-02-15"),
    ("yyyy-MM-dd", " 2024-02-29 ", "2024-02-29"),
  ])
  func reads(_ pattern: String, _ text: String, _ iso: String) throws {
    #expect(try #require(DateFormat(pattern)).isoDate(from: text) == iso)
  }

  @Test(arguments: ["02/30/2025", "13/01/2025", "2/1/25", "02/01/2025 12:00", "", "2023-02-29"])
  func refuses(_ text: String) throws {
    let format = try #require(DateFormat(text.hasPrefix("2023") ? "yyyy-MM-dd" : "MM/dd/yyyy"))
    #expect(format.isoDate(from: text) == nil)
  }

  @Test func patternsNeedADayAMonthAndAYear() {
    #expect(DateFormat("MM/dd") == nil)
    #expect(DateFormat("HH:mm") == nil)
  }
}
