import Foundation
import StatlineCore
import Testing

/// A JSON parser shares `PageParser` with the markup parsers and runs through the same pipeline.
@Suite struct JSONPageTests {
  struct Scoreboard: Decodable, Sendable {
    struct Entry: Decodable, Sendable {
      var url: String
      var away: String
      var home: String
    }
    var games: [Entry]
  }

  struct ScoreboardParser: PageParser {
    func parse(_ page: Page) throws -> Scoreboard { try JSONPage.decode(Scoreboard.self, from: page) }
  }

  struct ScoreboardNormalizer: Normalizer {
    func normalize(_ records: Scoreboard, page: Page) throws -> Batch {
      Batch(
        games: records.games.map {
          Game(
            id: "ncaa:\($0.url.split(separator: "/").last ?? "")", sport: .basketballMen, status: .unknown,
            away: TeamLine(team: TeamRef(name: $0.away)), home: TeamLine(team: TeamRef(name: $0.home)))
        })
    }
  }

  let entry = ParserEntry(
    id: "json-scoreboard", source: "test", summary: "", format: .json, parser: ScoreboardParser(),
    normalizer: ScoreboardNormalizer())

  func run(_ json: String) throws(StatlineError) -> Batch {
    try PagePipeline.run(Page(url: "https://data.test/sb.json", body: Data(json.utf8)), with: entry)
  }

  @Test func aJSONPageParsesThroughThePipeline() throws {
    let batch = try run(#"{"games": [{"url": "/game/6383030", "away": "Duke", "home": "UNC"}]}"#)
    #expect(batch.games.map(\.id) == ["ncaa:6383030"])
    #expect(batch.parser == "json-scoreboard")
  }

  @Test func aWrongShapeNamesTheJSONPath() {
    do {
      _ = try run(#"{"games": [{"url": "/game/1", "away": "Duke"}]}"#)
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .wrongPage)
      #expect(error.reason == "the JSON does not have the expected shape: missing key 'home' at .games[0]")
      #expect(error.parser == "json-scoreboard")
    }
  }

  @Test func notJSONIsAnError() {
    #expect(throws: StatlineError.self) { try run("<html>not json</html>") }
  }

  @Test func anEmptyListIsNeverAnEmptyBatch() {
    do {
      _ = try run(#"{"games": []}"#)
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .validation)
    }
  }
}
