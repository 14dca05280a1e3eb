/// The text of the files `statline new-source` writes.
enum ScaffoldTemplates {
  static func descriptor(name: String, sourceId: String, parserId: String) -> String {
    """
    import StatlineCore

    /// The \(name) source plugin: its id, its parsers and the pages they claim.
    public enum \(name)Source {
      public static let id = "\(sourceId)"

      public static let plugin = SourcePlugin(id: id, name: "\(name)", folder: "\(name)") { _ in
        [
          ParserEntry(
            id: "\(parserId)", source: id, summary: "\(name) scoreboard page", format: .html,
            urlPatterns: [try URLPattern(#"^https?://scores\\.example\\.com/scoreboard"#)],
            sniffer: { $0.prefix().contains("class=\\"scoreboard\\"") },
            parser: ScoreboardParser(), normalizer: ScoreboardNormalizer())
        ]
      }
    }

    """
  }

  static let parser = """
    import StatlineCore
    import StatlineHTML

    /// One scoreboard row, as the page shows it.
    struct ScoreboardRow: Sendable, Equatable {
      var id: String
      var away: String
      var awayScore: Int?
      var home: String
      var homeScore: Int?
      var status: String
    }

    /// Reads `table.scoreboard` rows. No rows is an error, never an empty result.
    struct ScoreboardParser: PageParser {
      func parse(_ page: Page) throws -> [ScoreboardRow] {
        let document = try Document.html(page.body, url: page.url)
        let rows = try document.select(css: "table.scoreboard tr[data-game-id]")
        guard !rows.isEmpty else {
          throw StatlineError(
            .wrongPage, "the page has no scoreboard rows (table.scoreboard tr[data-game-id])",
            hint: "the layout may have changed")
        }
        return try rows.map { row in
          ScoreboardRow(
            id: row.attribute("data-game-id") ?? "",
            away: try row.first(css: "td.away")?.text ?? "",
            awayScore: Int(try row.first(css: "td.away-score")?.text ?? ""),
            home: try row.first(css: "td.home")?.text ?? "",
            homeScore: Int(try row.first(css: "td.home-score")?.text ?? ""),
            status: try row.first(css: "td.status")?.text ?? "")
        }
      }
    }

    """

  static func normalizer(sourceId: String) -> String {
    """
    import StatlineCore

    /// Turns scoreboard rows into normalized games.
    struct ScoreboardNormalizer: Normalizer {
      func normalize(_ rows: [ScoreboardRow], page: Page) throws -> Batch {
        var batch = Batch()
        for row in rows {
          guard !row.id.isEmpty, !row.away.isEmpty, !row.home.isEmpty else {
            throw StatlineError(.wrongPage, "a scoreboard row lacks its id or a team name")
          }
          batch.games.append(
            Game(
              id: "\(sourceId):\\(row.id)", sport: .lacrosseMen, status: status(row.status),
              away: TeamLine(team: TeamRef(name: row.away), score: row.awayScore),
              home: TeamLine(team: TeamRef(name: row.home), score: row.homeScore)))
        }
        return batch
      }

      /// Unknown texts are `unknown`, never guessed.
      func status(_ text: String) -> GameStatus {
        switch text.lowercased() {
        case "final": .final
        case "scheduled": .scheduled
        case "live": .live
        default: .unknown
        }
      }
    }

    """
  }

  static func tests(name: String, module: String, parserId: String) -> String {
    """
    import Foundation
    import StatlineCore
    import StatlineFixtures
    import StatlineTesting
    import Testing

    @testable import \(module)

    @Suite struct \(module)Tests {
      static let goldens = GoldenCases([\(module).plugin])

      @Test(arguments: Self.goldens.cases(plugin: "\(name)"))
      func golden(_ fixture: FixtureCase) {
        Self.goldens.expectPasses(fixture)
      }

      @Test func pageWithoutRowsIsAnError() throws {
        let entry = try #require(try \(module).plugin.parsers(PluginSettings()).first)
        let page = Page(
          url: "https://scores.example.com/scoreboard",
          body: Data("<html><body><table class='scoreboard'></table></body></html>".utf8))
        #expect(throws: StatlineError.self) { try PagePipeline.run(page, with: entry) }
      }
    }

    """
  }

  static let samplePage = """
    <!DOCTYPE html>
    <html>
    <head><title>Scoreboard</title></head>
    <body>
    <table class="scoreboard">
      <tr><th>Away</th><th></th><th>Home</th><th></th><th>Status</th></tr>
      <tr data-game-id="1001"><td class="away">Away College</td><td class="away-score">7</td><td class="home">Home University</td><td class="home-score">9</td><td class="status">Final</td></tr>
      <tr data-game-id="1002"><td class="away">Visitor State</td><td class="away-score"></td><td class="home">Host Tech</td><td class="home-score"></td><td class="status">Scheduled</td></tr>
    </table>
    </body>
    </html>

    """
}
