import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

/// The merge's short cuts for a game one source holds (`GameMerger.merge(id:alone:)`,
/// `CanonicalStep.mergeAlone`) give what the general rules give, on games of every shape, and
/// step aside for every batch they do not cover.
@Suite struct MergeAloneTests {
  static let step = CanonicalStep(merger: GameMergerTests.merger)

  /// A small deterministic generator, so that a failing game can be made again.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state ^ (state >> 29)
    }
  }

  static func randomGame(_ random: inout Generator, id: String) -> Game {
    func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
    let names = ["Army", "UNC", "North Carolina", "Duke", "Nowhere Tech", "Saint Joseph's", "St. Joseph's (PA)"]
    func line() -> TeamLine {
      TeamLine(
        team: TeamRef(
          id: maybe("S\(Int.random(in: 1...999, using: &random))"), name: names.randomElement(using: &random)!,
          abbreviation: maybe("ABC")),
        score: maybe(Int.random(in: 0...20, using: &random)), periodScores: [1, 2, 0].shuffled(using: &random),
        record: maybe("3-1"), rank: maybe(Int.random(in: 1...20, using: &random)), winner: maybe(true))
    }
    return Game(
      id: id, sport: [.lacrosseMen, .lacrosseWomen, .basketballMen].randomElement(using: &random)!,
      status: [.scheduled, .live, .final, .postponed].randomElement(using: &random)!,
      period: maybe(Int.random(in: 1...5, using: &random)), periodLabel: maybe("2nd"), clock: maybe("04:30"),
      date: maybe("2026-03-14"), startTime: maybe("2026-03-14T16:00:00Z"), venue: maybe("Dorrance Field"),
      attendance: maybe(1200), neutralSite: maybe(Bool.random(using: &random)), away: line(), home: line())
  }

  @Test func oneSourceMergesAsTheGeneralRulesDo() {
    var random = Generator(state: 29)
    let merger = GameMergerTests.merger
    for index in 0..<2_000 {
      let game = Self.randomGame(&random, id: ["statbroadcast:", "ncaa:com-", "espn:"][index % 3] + "\(index)")
      let source = SourceGame(
        game: game, registry: merger.registry, feeds: merger.feeds,
        liveChangedAt: Date(timeIntervalSince1970: Double(index)))
      for previous in [nil, game.id, "statbroadcast:other"] {
        let general = merger.mergeSeveral(id: GameMergerTests.id, sources: [source], previousLiveSource: previous)
        let alone = merger.merge(id: GameMergerTests.id, sources: [source], previousLiveSource: previous)
        #expect(alone == general, "game \(index), previous \(previous ?? "none")")
      }
    }
  }

  /// A game polled again after the step placed it: the short cut and matching give the same
  /// stamped game and canonical game, whether or not its live facts changed.
  @Test func aPlacedGameAloneMergesAsMatchingWould() throws {
    var random = Generator(state: 31)
    let start = Date(timeIntervalSince1970: 1_000)
    for index in 0..<500 {
      var game = Self.randomGame(&random, id: "statbroadcast:\(index)")
      let first = Self.step.merge([game], candidates: [], stored: [:], at: start)
      let canonical = try #require(first.canonical.first)
      let held = CanonicalStep.StoredSource(game: try #require(first.sources.first), changedAt: start)
      if Bool.random(using: &random) { game.clock = "01:00" }
      if Bool.random(using: &random) { game.status = .final }
      let later = start.addingTimeInterval(30)
      let alone = try #require(
        Self.step.mergeAlone([game], candidates: [canonical]),
        "game \(index) is alone in its canonical game")
      let matching = Self.step.mergeMatching([game], candidates: [canonical], stored: [game.id: held], at: later)
      #expect(alone.sources == matching.sources, "game \(index)")
      #expect(alone.canonical == matching.canonical, "game \(index)")
    }
  }

  /// Every batch the short cut does not cover goes to matching: a canonical game with two
  /// sources, teams or a sport that changed, two canonical games that claim the game, a batch
  /// of two games, a game never placed.
  @Test func theShortCutStepsAsideForEverythingElse() throws {
    var random = Generator(state: 37)
    let start = Date(timeIntervalSince1970: 1_000)
    var game = Self.randomGame(&random, id: "statbroadcast:1")
    game.sport = .lacrosseMen
    game.away.team = TeamRef(name: "Army")
    game.home.team = TeamRef(name: "UNC")
    let canonical = try #require(Self.step.merge([game], candidates: [], stored: [:], at: start).canonical.first)
    func declines(_ games: [Game], _ candidates: [Game], _ comment: Comment) {
      #expect(Self.step.mergeAlone(games, candidates: candidates) == nil, comment)
    }
    var shared = canonical
    shared.sources = [game.id, "ncaa:com-1"]
    declines([game], [shared], "two sources")
    var otherTeam = game
    otherTeam.home.team = TeamRef(name: "Duke")
    declines([otherTeam], [canonical], "the teams changed")
    var otherSport = game
    otherSport.sport = .lacrosseWomen
    declines([otherSport], [canonical], "the sport changed")
    var twin = canonical
    twin.id += "~g2"
    declines([game], [canonical, twin], "two canonical games hold it")
    var second = game
    second.id = "statbroadcast:2"
    declines([game, second], [canonical], "two games")
    declines([game], [], "never placed")
    #expect(Self.step.mergeAlone([game], candidates: [canonical]) != nil)
  }
}
