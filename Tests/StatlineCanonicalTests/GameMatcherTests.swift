import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

@Suite struct GameMatcherTests {
  static let registry = TeamRegistryTests.registry
  static let epoch = Date(timeIntervalSince1970: 1_773_500_000)

  static func source(
    _ id: String, _ away: String, _ home: String, date: String? = "2026-03-14", start: String? = nil,
    sport: Sport = .lacrosseMen, status: GameStatus = .scheduled
  ) -> SourceGame {
    let game = Game(
      id: id, sport: sport, status: status, date: date, startTime: start,
      away: TeamLine(team: TeamRef(id: nil, name: away)), home: TeamLine(team: TeamRef(id: nil, name: home)))
    return SourceGame(game: game, registry: registry, feeds: TestFeeds.feeds, liveChangedAt: epoch)
  }

  /// Places games one after another as a store would, keeping the entries.
  static func placeAll(_ games: [SourceGame]) -> [String: String] {
    var entries: [CanonicalGameEntry] = []
    var placed: [String: String] = [:]
    for game in games {
      switch GameMatcher.place(game, among: entries) {
      case .join(let id):
        placed[game.game.id] = id
        if let index = entries.firstIndex(where: { $0.id == id }) {
          entries[index].members.append(.init(gameId: game.game.id, feed: game.feed, startTime: game.game.startTime))
        }
      case .create(let entry):
        placed[game.game.id] = entry.id
        entries.append(entry)
      }
    }
    return placed
  }

  @Test func twoFeedsNamingTheTeamsDifferentlyAreOneGame() {
    // ESPN dates by UTC: a 7 pm Eastern start is the next day there, at the same instant.
    let placed = Self.placeAll([
      Self.source("statbroadcast:640301", "Army", "UNC", start: "2026-03-14T19:00:00-04:00"),
      Self.source("ncaa:com-6600001", "Army West Point", "North Carolina"),
      Self.source(
        "espn:401700001", "Army Black Knights", "North Carolina Tar Heels", date: "2026-03-15",
        start: "2026-03-14T23:00:00Z"),
    ])
    #expect(placed["statbroadcast:640301"] == "game:2026-03-14:lacrosse-men:457~725")
    #expect(Set(placed.values).count == 1, "\(placed)")
  }

  @Test func theSameTeamsOnConsecutiveDaysAreTwoGamesUnlessTheirStartsAgree() {
    // A weekend series: one feed has Saturday's game before the other has Friday's.
    let series = Self.placeAll([
      Self.source("statbroadcast:1", "Army", "UNC", date: "2026-03-13"),
      Self.source("ncaa:com-2", "Army West Point", "North Carolina", date: "2026-03-14"),
      Self.source("ncaa:com-1", "Army West Point", "North Carolina", date: "2026-03-13"),
    ])
    #expect(series["ncaa:com-2"] == "game:2026-03-14:lacrosse-men:457~725", "no start: the day is the game's")
    #expect(series["ncaa:com-1"] == series["statbroadcast:1"])
    let apart = Self.placeAll([
      Self.source("statbroadcast:1", "Army", "UNC", date: "2026-03-13", start: "2026-03-13T12:00:00-04:00"),
      Self.source("espn:2", "Army", "North Carolina", date: "2026-03-14", start: "2026-03-14T16:00:00Z"),
    ])
    #expect(Set(apart.values).count == 2, "a day apart at the same hour: two games, \(apart)")
  }

  @Test func aNeutralSiteListedInTheOtherOrderIsTheSameGame() {
    let placed = Self.placeAll([
      Self.source("ncaa:6310104", "Cornell", "Johns Hopkins"), Self.source("espn:1", "Johns Hopkins", "Cornell"),
    ])
    #expect(placed["ncaa:6310104"] == placed["espn:1"])
  }

  /// Two games of one day between the same teams: one feed lists both, so they are two games,
  /// and the other feed's games join them by start time, whichever order they come in.
  @Test func aDoubleheaderIsToldApartByStartTime() {
    let early = Self.source("ncaa:1", "Navy", "Army West Point", start: "2026-03-14T17:00:00Z")
    let late = Self.source("ncaa:2", "Navy", "Army West Point", start: "2026-03-14T21:00:00Z")
    let espnLate = Self.source("espn:2", "Navy", "Army", start: "2026-03-14T21:05:00Z")
    let espnEarly = Self.source("espn:1", "Navy", "Army", start: "2026-03-14T17:00:00Z")
    for order in [[early, late, espnLate, espnEarly], [espnLate, early, espnEarly, late]] {
      let placed = Self.placeAll(order)
      #expect(placed["ncaa:1"] == placed["espn:1"] && placed["ncaa:2"] == placed["espn:2"], "\(placed)")
      #expect(placed["ncaa:1"] != placed["ncaa:2"])
      #expect(Set(placed.values).contains("game:2026-03-14:lacrosse-men:725~726~g2"), "\(placed)")
    }
  }

  @Test func aTeamThatDoesNotResolveOnlyMatchesItself() {
    let placed = Self.placeAll([
      Self.source("statbroadcast:1", "NC Brooklyn", "North Carolina"),
      Self.source("ncaa:com-1", "Brooklyn", "North Carolina"),
      Self.source("ncaa:2", "NC Brooklyn", "North Carolina"),
    ])
    #expect(placed["statbroadcast:1"] != placed["ncaa:com-1"], "two names the registry does not know")
    #expect(placed["statbroadcast:1"] == placed["ncaa:2"], "the same printed name is the same source team")
    #expect(placed["statbroadcast:1"] == "game:2026-03-14:lacrosse-men:nc-brooklyn~457")
  }

  @Test func gamesTwoDaysApartOrOfAnotherSportAreOthers() {
    let placed = Self.placeAll([
      Self.source("ncaa:1", "Duke", "North Carolina"),
      Self.source("espn:1", "Duke", "North Carolina", date: "2026-03-16"),
      Self.source("espn:2", "Duke", "North Carolina", sport: .lacrosseWomen),
    ])
    #expect(Set(placed.values).count == 3)
  }

  @Test func aGameWithoutADateIsItsOwn() {
    let placed = Self.placeAll([Self.source("ncaa:1", "Duke", "North Carolina", date: nil)])
    #expect(placed["ncaa:1"] == "game:ncaa:1")
  }
}

/// The day arithmetic the matcher and the canonical ids rest on, against Foundation's calendar.
struct GameDayTests {
  @Test func daysAndDatesAgreeWithTheGregorianCalendarBothWays() {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(secondsFromGMT: 0)!
    // Every day from 1999 to 2031 (leap years and century rules on the way).
    for days in stride(from: 10_592, through: 22_645, by: 1) {
      let parts = utc.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
      let text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
      #expect(GameMatcher.date(days) == text)
      #expect(GameMatcher.day(text) == days)
    }
    #expect(GameMatcher.day("2026-03-07") == 20_519 && GameMatcher.date(20_519) == "2026-03-07")
    #expect(GameMatcher.day("2026-02-31") == GameMatcher.day("2026-03-03"), "a day past the month runs on")
    for bad in ["2026-13-01", "2026-00-10", "2026-03-00", "2026-03-32", "2026-03", "2026--03-07", "today", ""] {
      #expect(GameMatcher.day(bad) == nil, "\(bad)")
    }
  }
}
