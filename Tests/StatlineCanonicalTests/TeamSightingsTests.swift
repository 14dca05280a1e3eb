import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

@Suite struct TeamSightingsTests {
  static func game(_ id: String, _ away: TeamRef, _ home: TeamRef, date: String) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: .scheduled, date: date, away: TeamLine(team: away),
      home: TeamLine(team: home))
  }

  /// One school printed three ways by three sources resolves three times to one team; a name no
  /// school goes by is listed with its games, its newest date and the reason.
  @Test func everySourceTeamIsResolvedAndTheUnmatchedSayWhereTheyWereSeen() throws {
    let unc = TeamRef(id: "statbroadcast:team-north-ca", name: "North Carolina")
    let brooklyn = TeamRef(id: "statbroadcast:team-ncb", name: "NC Brooklyn")
    let games = [
      Self.game("statbroadcast:1", brooklyn, unc, date: "2026-02-14"),
      Self.game("statbroadcast:2", brooklyn, unc, date: "2026-03-01"),
      Self.game(
        "ncaa:com-9", TeamRef(id: "ncaa:com-team-army", name: "Army"), TeamRef(id: nil, name: "UNC"), date: "2026-03-07"
      ),
    ]
    let teams = [Team(id: "statbroadcast:team-north-ca", name: "North Carolina", ncaaOrgId: "457")]
    let sightings = TeamSightings(teams: teams, games: games, registry: TestFeeds.registry)
    #expect(sightings.sightings.count == 4)
    let north = try #require(sightings.sightings.first { $0.key == "statbroadcast:team-north-ca" })
    #expect(north.resolution?.team.id == "team:457" && north.resolution?.pass == .id && north.games == 2)
    #expect(sightings.sightings.first { $0.key == "UNC" }?.resolution?.team.id == "team:457")
    #expect(sightings.sightings.first { $0.key == "ncaa:com-team-army" }?.resolution?.team.id == "team:725")
    let unmatched = try #require(sightings.unmatched.first)
    #expect(sightings.unmatched.count == 1)
    #expect(unmatched.key == "statbroadcast:team-ncb" && unmatched.games == 2 && unmatched.lastDate == "2026-03-01")
    #expect(unmatched.exampleGame == "statbroadcast:1")
    #expect(unmatched.reason == "no school goes by 'NC Brooklyn' or by the id statbroadcast:team-ncb")
    #expect(sightings.byPass == [.id: 2, .alias: 1], "the ncaa.com slug is an id; UNC is an other name")
  }
}
