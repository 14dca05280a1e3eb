import Foundation
import StatlineApp
import StatlineCanonical
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

/// The second oracle: `../shared/fixtures/real/FACTS.json` holds facts worked out by hand from
/// each real page (not from Statline's code). Every real page that a fixture case reads is
/// replayed through its parser, with the case's URL, and every fact listed for it is checked.
/// A page of a sport Statline does not read yet is skipped by name, with the reason, and the
/// skipped list is printed.
@Suite(.serialized) struct RealPageFactsTests {
  /// The sports whose pages are read today (the sports issue adds the rest).
  static let readSports: Set<String> = ["lacrosse-men", "lacrosse-women"]
  /// Parsers that read more sports than lacrosse.
  static let moreSports: [String: Set<String>] = [
    "statbroadcast-game-xml": [
      "basketball-men", "basketball-women", "volleyball-women", "volleyball-men", "soccer-men", "soccer-women",
      "field-hockey", "football", "baseball", "softball",
    ],
    "ncaa-stats-contest-pbp": ["basketball-men", "basketball-women"],
    "ncaa-gql-pbp": ["basketball-men", "basketball-women"],
    "statbroadcast-event": ["baseball"],
    "statbroadcast-broadcast-view": ["baseball"],
  ]
  /// Parsers that read a page whatever its sport (a scoreboard row does not depend on it).
  static let everySport: Set<String> = [
    "ncaa-stats-scoreboard", "espn-scoreboard", "ncaa-casablanca-scoreboard", "ncaa-stats-team-list",
    "ncaa-gql-contests", "espn-rankings",
  ]

  /// A school the page prints two ways ("Air Force" in its logo's alt, "Air Force Falcons" in its
  /// heading, which FACTS takes) is one team when the registry resolves both names to one school.
  static let registry = try! BuiltinPlugins.teamRegistry()

  struct Facts: Decodable {
    struct GameFacts: Decodable {
      var nativeId: String?
      var away: String?
      var home: String?
      var awayScore: Int?
      var homeScore: Int?
      var awayPeriods: [Int]?
      var homePeriods: [Int]?
      var status: String?
      var period: Int?
      var date: String?
      var attendance: Int?
      var neutralSite: Bool?
      var clock: String?
      var awayRank: Int?
      var homeRank: Int?
      var venue: String?
      /// A doubleheader's game number (StatCrew's `dhgame`).
      var doubleheaderGame: Int?
      /// On a trimmed play-by-play: the running score of the last play kept.
      var lastKeptScore: Sides?
    }

    struct Sides: Decodable {
      var away: Int
      var home: Int
    }

    struct TeamFacts: Decodable {
      var count: Int
      var first3: [String]?
    }

    /// A poll's row as FACTS reads it.
    struct RankingFacts: Decodable {
      var poll: String
      var rank: Int
      var team: String
      var points: Int?
      var firstPlaceVotes: Int?
      var record: String?
      var previous: Int?
      var teamId: String?
    }

    var file: String
    var sport: String?
    var rankings: [RankingFacts]?
    var games: [GameFacts]?
    var gameCount: Int?
    var players: Sides?
    var plays: Int?
    var scoringPlays: Sides?
    var teams: TeamFacts?
  }

  static func facts() throws -> [Facts] {
    try JSONDecoder().decode([Facts].self, from: RealPages.data("FACTS.json"))
  }

  /// Each real page a case reads, with the case's parser and URL.
  static func cases() throws -> [(page: String, parser: String, url: String?)] {
    try GoldenCases(BuiltinPlugins.all).suite.cases().filter(\.isReal).map { fixture in
      let spec = try JSONDecoder().decode(RealPageSpec.self, from: Data(contentsOf: fixture.realPageSpecFile))
      return (spec.page, fixture.parser, spec.url)
    }
  }

  @Test(.enabled(if: RealPages.available, "needs $STATLINE_REAL_FIXTURES"))
  func everyRealPageMatchesItsFacts() throws {
    let registry = try BuiltinPlugins.registry()
    let facts = Dictionary(try Self.facts().map { ($0.file, $0) }) { first, _ in first }
    var checked: [String] = []
    var skipped: [String] = []
    for (file, parser, url) in try Self.cases() {
      guard let fact = facts[file] else { continue }
      if let sport = fact.sport, !Self.readSports.contains(sport), !Self.everySport.contains(parser),
        !(Self.moreSports[parser]?.contains(sport) ?? false)
      {
        skipped.append("\(file): \(sport) is not read yet")
        continue
      }
      let entry = try #require(registry.parser(id: parser))
      var page = try RealPages.page(file, url: url ?? "")
      if url == nil { page.url = nil }
      let batch: Batch
      do {
        batch = try PagePipeline.run(page, with: entry)
      } catch {
        Issue.record("\(file) (\(parser)) is refused: \(error)")
        continue
      }
      Self.check(batch, against: fact, parser: parser)
      checked.append(file)
    }
    print("FACTS.json: checked \(checked.count) real pages; skipped \(skipped.count):")
    for line in skipped { print("  skipped \(line)") }
    #expect(checked.count >= 8, "the lacrosse pages are all read: \(checked)")
  }

  /// Every row FACTS lists is in the poll of its name, as printed, and the registry knows every
  /// team (by its id on the page).
  static func check(_ rankings: [Ranking], against facts: [Facts.RankingFacts], sport: String?, file: String) {
    #expect(
      Set(rankings.map(\.name)) == Set(facts.map(\.poll)), "\(file): the polls \(rankings.map(\.name))")
    if let sport { #expect(rankings.allSatisfy { $0.sport.rawValue == sport }, "\(file): sport") }
    let rows = rankings.reduce(into: 0) { $0 += $1.rows.count }
    #expect(rows == facts.count, "\(file): \(rows) ranked rows, FACTS lists \(facts.count)")
    for expected in facts {
      let at = "\(file): \(expected.poll) #\(expected.rank)"
      guard
        let row = rankings.first(where: { $0.name == expected.poll })?.rows.first(where: { $0.rank == expected.rank })
      else {
        Issue.record("\(at) is missing")
        continue
      }
      #expect(row.team.name == expected.team, "\(at): team")
      if let id = expected.teamId { #expect(row.team.id?.hasSuffix("-\(id)") == true, "\(at): team id") }
      #expect(row.points == expected.points && row.firstPlaceVotes == expected.firstPlaceVotes, "\(at): points, votes")
      #expect(row.record == expected.record && row.previous == expected.previous, "\(at): record, previous")
      let school = Self.registry.resolve(SourceTeam(row.team))
      let byName = Self.registry.resolve(SourceTeam(id: nil, name: expected.team))?.team.id
      #expect(
        school != nil && school?.team.id == byName, "\(at): \(row.team.name) resolves to one school by id and name")
    }
  }

  static func check(_ batch: Batch, against fact: Facts, parser: String) {
    let file = "\(fact.file) (\(parser))"
    if let rankings = fact.rankings { check(batch.rankings, against: rankings, sport: fact.sport, file: file) }
    if let count = fact.gameCount { #expect(batch.games.count == count, "\(file): games") }
    // A team whose page gives its NCAA org id (a StatCrew code) is the school its name says.
    for team in batch.teams {
      guard let org = team.ncaaOrgId else { continue }
      let byName = Self.registry.resolve(SourceTeam(id: nil, name: team.name))?.team.id
      #expect(
        byName == "team:\(org)", "\(file): \(team.name) has code \(org), its name resolves to \(byName ?? "none")")
    }
    for (index, expected) in (fact.games ?? []).enumerated() {
      let game: Game?
      if let native = expected.nativeId {
        game = batch.games.first { $0.id.hasSuffix(":\(native)") || $0.id.hasSuffix("-\(native)") }
      } else {
        game =
          batch.games.count == 1 ? batch.games.first : batch.games.indices.contains(index) ? batch.games[index] : nil
      }
      // A final whose page prints no score (a play-by-play trimmed by its publisher) gives no
      // game record: one without a score would blank the score its scoreboard gave. The page's
      // plays are kept, and the refusal is named, so the poll is partial, never silently empty.
      if let kept = expected.lastKeptScore, expected.status == "final", expected.awayScore == nil {
        #expect(game == nil, "\(file): a final without a score is not stored as a game")
        #expect(
          batch.warnings.contains { $0.hasPrefix(BatchValidator.refusedPrefix) && $0.contains("has no away score") },
          "\(file): the refusal is named: \(batch.warnings)")
        let last = batch.plays.last { $0.awayScore != nil && $0.homeScore != nil }
        #expect(last?.awayScore == kept.away && last?.homeScore == kept.home, "\(file): last kept score")
        continue
      }
      guard let game else {
        Issue.record(
          "\(file): no game \(expected.nativeId ?? "#\(index)") (\(expected.away ?? "?") at \(expected.home ?? "?"))")
        continue
      }
      let at = "\(file) game \(expected.nativeId ?? "#\(index)")"
      for (line, name) in [(game.away, expected.away), (game.home, expected.home)] {
        guard let name, line.team.name != name else { continue }
        let printed = Self.registry.resolve(SourceTeam(line.team))?.team.id
        let expected = Self.registry.resolve(SourceTeam(id: nil, name: name))?.team.id
        #expect(
          printed != nil && printed == expected,
          "\(at): team '\(line.team.name)' (\(printed ?? "unresolved")) is not FACTS' '\(name)' (\(expected ?? "unresolved"))"
        )
      }
      if let score = expected.awayScore { #expect(game.away.score == score, "\(at): away score") }
      if let score = expected.homeScore { #expect(game.home.score == score, "\(at): home score") }
      if let periods = expected.awayPeriods { #expect(game.away.periodScores == periods, "\(at): away periods") }
      if let periods = expected.homePeriods { #expect(game.home.periodScores == periods, "\(at): home periods") }
      if let status = expected.status { #expect(game.status.rawValue == status, "\(at): status") }
      if let period = expected.period { #expect(game.period == period, "\(at): period") }
      if let date = expected.date { #expect(game.date == date, "\(at): date") }
      // ESPN prints 0 for every game nobody has watched yet: that is no attendance (null), while
      // a stats.ncaa.org box may mean 0; either reading of a printed 0 passes.
      if let attendance = expected.attendance {
        #expect(
          game.attendance == attendance || (attendance == 0 && game.attendance == nil), "\(at): attendance")
      }
      // The model keeps a clock for live games only (a final's "00:00" is no time remaining to show).
      if let clock = expected.clock, expected.status == "live" { #expect(game.clock == clock, "\(at): clock") }
      if let rank = expected.awayRank { #expect(game.away.rank == rank, "\(at): away rank") }
      if let rank = expected.homeRank { #expect(game.home.rank == rank, "\(at): home rank") }
      if let neutral = expected.neutralSite, neutral { #expect(game.neutralSite == true, "\(at): neutral site") }
      if let number = expected.doubleheaderGame { #expect(game.gameNumber == number, "\(at): doubleheader game") }
    }
    if let players = fact.players, let box = batch.boxScores.first {
      #expect(box.away.players.count == players.away, "\(file): away players")
      #expect(box.home.players.count == players.home, "\(file): home players")
    }
    if let plays = fact.plays {
      // A row that holds two events (a faceoff going on with its ground ball) is two plays, the
      // second marked sameRow: the page's rows are the others.
      let rows = batch.plays.filter { $0.details["sameRow"] != "true" }.count
      #expect(rows == plays, "\(file): plays")
    }
    if let scoring = fact.scoringPlays {
      // Goals, or the plays that score in a sport of points or runs.
      let goals = batch.plays.filter { $0.type == .goal || $0.type == .score }
      #expect(goals.filter { $0.side == .away }.count == scoring.away, "\(file): away scoring plays")
      #expect(goals.filter { $0.side == .home }.count == scoring.home, "\(file): home scoring plays")
    }
    if let teams = fact.teams {
      #expect(batch.teams.count == teams.count, "\(file): teams")
      if let first = teams.first3 {
        #expect(Array(batch.teams.map(\.name).prefix(first.count)) == first, "\(file): first teams")
      }
    }
  }
}
