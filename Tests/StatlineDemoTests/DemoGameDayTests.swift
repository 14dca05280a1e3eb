import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import Testing

@testable import StatlineApp

/// The demo's game day of several sports: every game's StatCrew file, minute by minute from its
/// start to its final, is read whole by the StatBroadcast parser (nothing refused, nothing
/// unread) and says the score the script says.
@Suite struct DemoGameDayTests {
  static let registry = try! BuiltinPlugins.registry()

  static func batch(_ day: DemoGameDay, _ game: DemoGame, at seconds: Double) throws -> Batch? {
    guard let xml = day.xml(eventId: game.eventId, at: seconds) else { return nil }
    let page = Page(url: "https://archive.statbroadcast.com/\(game.eventId).xml", body: Data(xml.utf8))
    return try PagePipeline.run(page, with: try #require(registry.parser(id: "statbroadcast-game-xml")))
  }

  @Test func theDayHasLacrosseBasketballAndBaseball() {
    let sports = DemoGameDay().games.map(\.sport)
    #expect(Set(sports) == [.lacrosseMen, .lacrosseWomen, .basketballMen, .baseball])
    #expect(sports.prefix(3).allSatisfy { $0.isLacrosse }, "the benchmarks take the first game: a lacrosse one")
  }

  @Test(arguments: DemoGameDay().games.map(\.eventId))
  func everyMinuteOfEveryGameIsReadWholeWithTheScriptsScore(eventId: String) throws {
    let day = DemoGameDay()
    let game = try #require(day.games.first { $0.eventId == eventId })
    var seconds = Double(game.startMinute * 60)
    var last: Game?
    while true {
      let moment = day.moment(game, at: seconds)
      let batch = try #require(try Self.batch(day, game, at: seconds))
      #expect(batch.warnings.isEmpty, "\(eventId) at \(seconds): \(batch.warnings)")
      let stored = try #require(batch.games.first)
      #expect(stored.sport == game.sport)
      let score = game.score(by: moment)
      #expect((stored.away.score, stored.home.score) == (score.away, score.home), "\(eventId) at \(seconds)")
      #expect(batch.plays.filter { $0.type == .goal || $0.type == .score }.count == game.goals(by: moment).count)
      last = stored
      if case .final = moment { break }
      seconds += 30
    }
    let final = try #require(last)
    #expect(final.status == .final && final.away.score != final.home.score, "a final has a winner")
  }

  /// The baseball game's home team leads after the top of the ninth: the bottom half is not
  /// played, and its line leaves it out rather than printing a zero.
  @Test func theBaseballGameEndsWithoutTheBottomOfTheNinth() throws {
    let day = DemoGameDay()
    let game = try #require(day.games.first { $0.sport == .baseball })
    let final = try #require(try Self.batch(day, game, at: 24 * 3600)?.games.first)
    #expect(final.status == .final && final.period == 9)
    #expect(final.away.periodScores.count == 9 && final.home.periodScores.count == 8)
    #expect((final.away.score, final.home.score) == (2, 3) && final.home.winner == true)
    let topOfFifth = Double(game.startMinute * 60 + 4 * 360 + 60)
    let live = try #require(try Self.batch(day, game, at: topOfFifth)?.games.first)
    #expect(live.status == .live && live.periodLabel == "Top 5th" && live.home.periodScores.count == 4)
  }

  @Test func theCalendarNamesEachSportsCode() {
    let calendar = DemoGameDay().calendar(at: 0)
    for code in ["MLAX", "WLAX", "MBB", "BSB"] { #expect(calendar.contains("sbicon-\(code)")) }
  }
}
