import Foundation
import StatlineCore

/// Leaders and standings: computed from the stored box scores and final games of one sport and
/// season (cached per store version like every answer).
extension ReadAPI {
  func leaders(_ query: APIQuery, version: Int64) async throws -> ResponseCache.Entry {
    guard let sport = try Self.sport(query) else {
      throw Problem.badParameter("sport", "", expected: "a sport such as lacrosse-men (leaders are per sport)")
    }
    // The sport's scoring column by default (goals, points, runs; kills in volleyball).
    let profile = sport.profile
    let stat = query["stat"] ?? profile?.scoringKey ?? profile?.statKeys.first ?? StatKey.goals
    // As the OpenAPI document has it: ^[A-Za-z]{1,40}$.
    guard (1...40).contains(stat.utf8.count), stat.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A })
    else {
      throw Problem.badParameter("stat", stat, expected: "a stat key such as goals, assists, points, saves")
    }
    if let keys = profile?.statKeys, !keys.contains(stat) {
      throw Problem.badParameter(
        "stat", stat, expected: "one of \(sport)'s stat keys: \(keys.joined(separator: ", "))")
    }
    // Without a season, today's: checked again after midnight.
    let seasonEnds = query["season"] == nil ? nextMidnight() : nil
    let rule = configuration.seasons
    let season = try Self.season(query, rule: rule) ?? Season(date: today(), rule: rule) ?? Season(year: 1970)
    let limit = try query.int("limit", in: 1...configuration.maximumLimit, default: 25)
    struct Key: Hashable {
      var team: String
      var player: String
    }
    var totals: [Key: (value: Int, games: Int, team: TeamRef)] = [:]
    for game in try await reader.games(sport: sport, date: nil) where season.contains(game.date, rule: rule) {
      guard let (box, _) = try await boxScore(of: game) else { continue }
      for side in Side.allCases {
        let team = game[side].team
        for player in box[side].players {
          let key = Key(team: team.id ?? team.name, player: player.name)
          var entry = totals[key] ?? (0, 0, team)
          entry.value += player.stats[stat] ?? 0
          entry.games += 1
          totals[key] = entry
        }
      }
    }
    let ranked = totals.filter { $0.value.value > 0 }.sorted {
      ($1.value.value, $0.value.games, $0.key.player) < ($0.value.value, $1.value.games, $1.key.player)
    }
    var leaders: [Leader] = []
    for (index, item) in ranked.prefix(Int(limit)).enumerated() {
      let rank = index > 0 && leaders[index - 1].value == item.value.value ? leaders[index - 1].rank : index + 1
      leaders.append(
        Leader(
          rank: rank, player: item.key.player, team: item.value.team, value: item.value.value, games: item.value.games))
    }
    return ResponseCache.Entry(
      body: Self.encode(
        LeadersAnswer(sport: sport, stat: stat, season: season.text, leaders: leaders, version: version)),
      cacheControl: configuration.settledCacheControl, expires: seasonEnds)
  }

  func standings(_ query: APIQuery, version: Int64) async throws -> ResponseCache.Entry {
    guard let sport = try Self.sport(query) else {
      throw Problem.badParameter("sport", "", expected: "a sport such as lacrosse-men (standings are per sport)")
    }
    // Without a season, today's: checked again after midnight.
    let seasonEnds = query["season"] == nil ? nextMidnight() : nil
    let rule = configuration.seasons
    let season = try Self.season(query, rule: rule) ?? Season(date: today(), rule: rule) ?? Season(year: 1970)
    let conference = query["conference"]
    var conferences: [String: String] = [:]
    for team in try await reader.teams(sport: sport) {
      if let name = team.conference { conferences[team.id] = name }
    }
    var rows: [String: Standing] = [:]
    for game in try await reader.games(sport: sport, date: nil)
    where game.status == .final && season.contains(game.date, rule: rule) {
      guard let away = game.away.score, let home = game.home.score else { continue }
      let inConference =
        game.away.team.id.flatMap { conferences[$0] } != nil
        && game.away.team.id.flatMap { conferences[$0] } == game.home.team.id.flatMap { conferences[$0] }
      for (side, own, other) in [(Side.away, away, home), (.home, home, away)] {
        let team = game[side].team
        let key = team.id ?? team.name
        var row = rows[key] ?? Standing(team: team, conference: team.id.flatMap { conferences[$0] })
        row.record(own > other ? 1 : own < other ? -1 : 0, inConference: inConference)
        rows[key] = row
      }
    }
    let table = rows.values.filter { conference == nil || $0.conference == conference }.sorted {
      ($1.winPercentage, $1.wins, $0.team.name) < ($0.winPercentage, $0.wins, $1.team.name)
    }
    return ResponseCache.Entry(
      body: Self.encode(
        StandingsAnswer(
          sport: sport, season: season.text, conference: conference, standings: table, version: version)),
      cacheControl: configuration.settledCacheControl, expires: seasonEnds)
  }

  /// `season=`: the year the season ends in (`Season`, by the plugins' rule).
  static func season(_ query: APIQuery, rule: SeasonRule) throws(Problem) -> Season? {
    try query["season"].map { text throws(Problem) -> Season in
      guard text.count == 4, let year = Int(text) else {
        throw Problem.badParameter(
          "season", text, expected: "a year such as 2026 (\(Season.described(2026, rule: rule)))")
      }
      return Season(year: year)
    }
  }
}

struct Leader: Encodable {
  var rank: Int
  var player: String
  var team: TeamRef
  var value: Int
  /// Box scores the player appears in.
  var games: Int
}

struct LeadersAnswer: Encodable {
  var sport: Sport
  var stat: String
  var season: String
  var leaders: [Leader]
  var version: Int64
}

struct Standing: Encodable {
  var team: TeamRef
  @NullEncoded var conference: String?
  var wins = 0
  var losses = 0
  var ties = 0
  var conferenceWins = 0
  var conferenceLosses = 0
  var conferenceTies = 0
  var winPercentage = 0.0

  init(team: TeamRef, conference: String?) {
    self.team = team
    self.conference = conference
  }

  /// One final: 1 won, -1 lost, 0 tied.
  mutating func record(_ result: Int, inConference: Bool) {
    switch result {
    case 1: wins += 1
    case -1: losses += 1
    default: ties += 1
    }
    if inConference {
      switch result {
      case 1: conferenceWins += 1
      case -1: conferenceLosses += 1
      default: conferenceTies += 1
      }
    }
    let played = Double(wins + losses + ties)
    winPercentage = played > 0 ? ((Double(wins) + Double(ties) / 2) / played * 1000).rounded() / 1000 : 0
  }
}

struct StandingsAnswer: Encodable {
  var sport: Sport
  var season: String
  @NullEncoded var conference: String?
  var standings: [Standing]
  var version: Int64
}
