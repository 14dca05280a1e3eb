import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

@Suite struct GameMergerTests {
  static let merger = GameMerger(feeds: TestFeeds.feeds, registry: TeamRegistryTests.registry)
  static let id = "game:2026-03-14:lacrosse-men:457~725"

  static func record(
    _ id: String, away: (String, Int?), home: (String, Int?), status: GameStatus = .live, period: Int? = 2,
    clock: String? = "08:00", at seconds: TimeInterval = 0, venue: String? = nil, start: String? = nil
  ) -> SourceGame {
    let game = Game(
      id: id, sport: .lacrosseMen, status: status, period: period, clock: clock, date: "2026-03-14", startTime: start,
      venue: venue, away: TeamLine(team: TeamRef(id: nil, name: away.0), score: away.1),
      home: TeamLine(team: TeamRef(id: nil, name: home.0), score: home.1))
    return SourceGame(
      game: game, registry: TeamRegistryTests.registry, feeds: TestFeeds.feeds,
      liveChangedAt: Date(timeIntervalSince1970: seconds))
  }

  @Test func theGameIsCanonicalAndItsLiveFactsComeFromTheRecordFurthestAlong() throws {
    let feed = Self.record("statbroadcast:1", away: ("Army", 3), home: ("UNC", 4), period: 3, clock: "12:00", at: 10)
    let calendar = Self.record(
      "ncaa:com-1", away: ("Army West Point", 2), home: ("North Carolina", 4), period: 2, clock: "01:00", at: 20,
      venue: "Dorrance Field", start: "2026-03-14T16:00:00Z")
    let merged = try #require(Self.merger.merge(id: Self.id, sources: [calendar, feed], previous: nil))
    #expect(merged.game.id == Self.id && merged.liveSource == "statbroadcast:1")
    #expect(merged.game.away.team == TeamRef(id: "team:725", name: "Army West Point", abbreviation: "ARMY"))
    #expect(merged.game.home.team.id == "team:457" && merged.game.home.team.name == "North Carolina")
    #expect(merged.game.away.score == 3 && merged.game.period == 3 && merged.game.clock == "12:00")
    #expect(merged.game.venue == "Dorrance Field" && merged.game.startTime == "2026-03-14T16:00:00Z", "NCAA first")
    #expect(merged.sources == ["statbroadcast:1", "ncaa:com-1"], "by precedence")
  }

  /// The calendar changes after the feed but is a period behind: the game stays where the feed
  /// has it. The feed taking a goal back is shown (its own correction); the calendar moving
  /// ahead of the feed takes over.
  @Test func aLaggingFeedNeverMovesTheGameBackwards() throws {
    let feed = Self.record("statbroadcast:1", away: ("Army", 3), home: ("UNC", 4), period: 3, at: 10)
    var merged = try #require(Self.merger.merge(id: Self.id, sources: [feed], previous: nil))
    let lagging = Self.record(
      "ncaa:com-1", away: ("Army West Point", 2), home: ("North Carolina", 4), period: 2, at: 20)
    merged = try #require(Self.merger.merge(id: Self.id, sources: [feed, lagging], previous: merged))
    #expect(merged.liveSource == "statbroadcast:1" && merged.game.away.score == 3 && merged.game.period == 3)

    let takenBack = Self.record("statbroadcast:1", away: ("Army", 2), home: ("UNC", 4), period: 3, at: 30)
    merged = try #require(Self.merger.merge(id: Self.id, sources: [takenBack, lagging], previous: merged))
    #expect(merged.game.away.score == 2, "the live source's own correction")

    let ahead = Self.record(
      "ncaa:com-1", away: ("Army West Point", 2), home: ("North Carolina", 5), period: 3, clock: "05:00", at: 40)
    merged = try #require(Self.merger.merge(id: Self.id, sources: [takenBack, ahead], previous: merged))
    #expect(merged.liveSource == "ncaa:com-1" && merged.game.home.score == 5)
  }

  /// A feed ahead keeps its claim when a lagging one changes after it: the lagging change does not
  /// hide that the game moved on.
  @Test func aFeedAheadTakesOverEvenWhenALaggingOneChangedSince() throws {
    let feed = Self.record("statbroadcast:1", away: ("Army", 3), home: ("UNC", 4), period: 3, at: 10)
    var merged = try #require(Self.merger.merge(id: Self.id, sources: [feed], previous: nil))
    let ahead = Self.record(
      "espn:1", away: ("Army Black Knights", 3), home: ("North Carolina Tar Heels", 5), period: 3, at: 30)
    let lagging = Self.record(
      "ncaa:com-1", away: ("Army West Point", 2), home: ("North Carolina", 4), period: 2, at: 40)
    merged = try #require(Self.merger.merge(id: Self.id, sources: [feed, ahead, lagging], previous: merged))
    #expect(merged.liveSource == "espn:1" && merged.game.home.score == 5)
  }

  @Test func disagreeingFinalsKeepTheHigherPrecedenceFeedAndSaySo() throws {
    let feed = Self.record(
      "statbroadcast:1", away: ("Army", 9), home: ("UNC", 8), status: .final, period: 4, clock: nil, at: 10)
    let espn = Self.record(
      "espn:1", away: ("Army Black Knights", 8), home: ("North Carolina Tar Heels", 8), status: .final, period: 4,
      clock: nil, at: 50)
    for previous in [nil, Self.merger.merge(id: Self.id, sources: [espn], previous: nil)] {
      let merged = try #require(Self.merger.merge(id: Self.id, sources: [espn, feed], previous: previous))
      #expect(merged.game.away.score == 9 && merged.liveSource == "statbroadcast:1", "never flips to ESPN's")
      #expect(
        merged.conflict
          == MergedGame.Conflict(kept: "statbroadcast:1", keptScore: "9-8", other: "espn:1", otherScore: "8-8"))
    }
  }

  @Test func aRecordWithHomeAndAwaySwappedIsTurnedToMatch() throws {
    let ncaa = Self.record("ncaa:1", away: ("Army West Point", 1), home: ("North Carolina", 2), period: 1, at: 10)
    let espn = Self.record(
      "espn:1", away: ("North Carolina Tar Heels", 3), home: ("Army Black Knights", 1), period: 2, at: 20)
    let merged = try #require(Self.merger.merge(id: Self.id, sources: [ncaa, espn], previous: nil))
    #expect(merged.liveSource == "espn:1")
    #expect(merged.game.away.team.id == "team:725" && merged.game.away.score == 1 && merged.game.home.score == 3)
  }

  @Test func boxScoresAndPlaysComeByPrecedence() {
    #expect(Self.merger.preferred(["espn:1", "ncaa:com-1", "statbroadcast:1"]) == "statbroadcast:1")
    #expect(Self.merger.preferred(["espn:1", "ncaa:com-1"]) == "ncaa:com-1")
    let espnFirst = GameMerger(
      feeds: TestFeeds.feeds, precedence: [SourceFeed("espn"), SourceFeed("statcrew")],
      registry: TeamRegistryTests.registry)
    #expect(espnFirst.preferred(["statbroadcast:1", "espn:1", "ncaa:1"]) == "espn:1", "configurable")
  }
}

/// Events once per game (issue 29, point 4): the differ runs on the merged game, so a goal that
/// two feeds report is one goal, and a feed a poll behind causes no correction, period or lead
/// events.
@Suite struct MergedEventsTests {
  @Test func twoFeedsOnePollApartGiveEachGoalOnce() throws {
    // The feed's scores poll by poll, and the calendar one poll behind it.
    let script: [(away: Int, home: Int, period: Int)] = [
      (0, 0, 1), (1, 0, 1), (1, 1, 1), (1, 1, 2), (2, 1, 2), (2, 2, 3), (3, 2, 3), (3, 3, 4), (4, 3, 4),
    ]
    let merger = GameMergerTests.merger
    var merged: MergedGame?
    var events: [ChangeEvent] = []
    var clock: TimeInterval = 0
    // The store holds each feed's latest record; it writes one feed's at a time.
    var held: [String: SourceGame] = [:]
    for (index, step) in script.enumerated() {
      var polls: [SourceGame] = []
      clock += 10
      polls.append(
        GameMergerTests.record(
          "statbroadcast:1", away: ("Army", step.away), home: ("UNC", step.home), period: step.period, at: clock))
      if index > 0 {
        let behind = script[index - 1]
        polls.append(
          GameMergerTests.record(
            "ncaa:com-1", away: ("Army West Point", behind.away), home: ("North Carolina", behind.home),
            period: behind.period, at: clock + 5))
      }
      for poll in polls {
        held[poll.game.id] = poll
        let sources = Array(held.values)
        guard let next = merger.merge(id: GameMergerTests.id, sources: sources, previous: merged) else { continue }
        if let merged, merged.game != next.game {
          events += ScoreDiffer.events(previous: merged.game, current: next.game)
        }
        merged = next
      }
    }
    let goals = events.filter { $0.type == .goal }
    #expect(goals.count == 7, "\(events.map(\.type))")
    #expect(!events.contains { $0.type == .corrected })
    #expect(events.filter { $0.type == .periodStarted }.count == 3)
  }
}
