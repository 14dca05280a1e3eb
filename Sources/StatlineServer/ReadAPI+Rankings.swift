import StatlineCanonical
import StatlineCore

/// The weekly polls (architecture.md#read-api, rankings): `/v1/rankings` serves one week of each poll (the
/// latest unless `season` and `week` say which), `/v1/rankings/polls` which polls the store holds
/// and their weeks.
extension ReadAPI {
  func rankings(_ query: APIQuery, version: Int64) async throws -> ResponseCache.Entry {
    let sport = try Self.sport(query)
    let season = try Self.season(query, rule: configuration.seasons)
    let poll = query["poll"]
    let week = query["week"]
    var chosen: [Ranking] = []
    for (_, weeks) in try await pollWeeks(sport: sport, poll: poll) {
      let candidates = weeks.filter { season == nil || $0.season == season?.year }
      let found = week.map { wanted in candidates.last { Self.isWeek($0, wanted) } } ?? candidates.last
      if let found { chosen.append(found) }
    }
    if chosen.isEmpty, poll != nil || week != nil || season != nil {
      let which = [poll.map { "poll \($0)" }, season.map { "season \($0.text)" }, week.map { "week \($0)" }]
        .compactMap { $0 }.joined(separator: ", ")
      throw Problem.notFound(
        "no ranking in the store for \(which) (GET /v1/rankings/polls lists the polls and their weeks)")
    }
    return ResponseCache.Entry(
      body: Self.encode(RankingsAnswer(sport: sport, rankings: chosen, version: version)),
      cacheControl: configuration.settledCacheControl)
  }

  func rankingPolls(_ query: APIQuery, version: Int64) async throws -> ResponseCache.Entry {
    let polls = try await pollWeeks(sport: try Self.sport(query), poll: nil).compactMap { poll, weeks in
      weeks.last.map { latest in
        PollSummary(
          poll: poll, name: latest.name, sport: latest.sport, latest: latest.id,
          weeks: weeks.map {
            PollWeek(id: $0.id, season: $0.season, edition: $0.edition, week: $0.week, through: $0.through)
          })
      }
    }
    return ResponseCache.Entry(
      body: Self.encode(PollsAnswer(polls: polls, version: version)), cacheControl: configuration.settledCacheControl)
  }

  /// Each poll's stored weeks (a paged poll's parts merged), oldest first, by poll id.
  func pollWeeks(sport: Sport?, poll: String?) async throws -> [(poll: String, weeks: [Ranking])] {
    // A paged poll's pages are one week.
    var parts: [String: [Ranking]] = [:]
    for part in try await reader.rankings(sport: sport, poll: poll) { parts[part.weekId, default: []].append(part) }
    var byPoll: [String: [Ranking]] = [:]
    for week in parts.values.compactMap(Ranking.merged) { byPoll[week.poll, default: []].append(week) }
    return byPoll.sorted { $0.key < $1.key }.map { poll, weeks in
      (poll, weeks.sorted { ($0.season, $0.edition) < ($1.season, $1.edition) })
    }
  }

  /// The games with each team line that prints no rank given the team's rank in its sport's
  /// primary poll: the poll's latest week of the game's season that runs through a day before
  /// the game (a week without a through-date counts as before it), else that season's first week.
  /// A rank the game's page printed wins.
  func ranked(_ games: [Game]) async throws -> [Game] {
    guard !configuration.primaryPolls.isEmpty else { return games }
    var weeksByPoll: [String: [Ranking]] = [:]
    var result = games
    for index in result.indices {
      let game = result[index]
      guard let poll = configuration.primaryPolls[game.sport], game.away.rank == nil || game.home.rank == nil,
        let season = game.date.flatMap({ Season(date: $0, rule: configuration.seasons) })
      else { continue }
      if weeksByPoll[poll] == nil { weeksByPoll[poll] = try await pollWeeks(sport: nil, poll: poll).first?.weeks ?? [] }
      let weeks = (weeksByPoll[poll] ?? []).filter { $0.season == season.year }
      guard let week = weeks.last(where: { ($0.through ?? "") < (game.date ?? "") }) ?? weeks.first else { continue }
      for side in Side.allCases where result[index][side].rank == nil {
        guard let team = canonicalId(of: game[side].team),
          let row = week.rows.first(where: { $0.canonicalTeamId == team })
        else { continue }
        result[index][side].rank = row.rank
        result[index][side].rankSource = week.id
      }
    }
    return result
  }

  private func canonicalId(of team: TeamRef) -> String? {
    if let id = team.id, registry.team(id: id) != nil { return id }
    return registry.resolve(SourceTeam(team))?.team.id
  }

  /// `week=` names a week by its number (`5`), its edition (`t2-w05`) or its through-date.
  static func isWeek(_ ranking: Ranking, _ wanted: String) -> Bool {
    ranking.edition == wanted || ranking.through == wanted || ranking.week.map(String.init) == wanted
  }
}

struct RankingsAnswer: Encodable {
  @NullEncoded var sport: Sport?
  var rankings: [Ranking]
  var version: Int64
}

struct PollsAnswer: Encodable {
  var polls: [PollSummary]
  var version: Int64
}

/// A poll the store holds: its latest week's id, and every week.
struct PollSummary: Encodable {
  var poll: String
  var name: String
  var sport: Sport
  var latest: String
  var weeks: [PollWeek]
}

struct PollWeek: Encodable {
  var id: String
  var season: Int
  var edition: String
  @NullEncoded var week: Int?
  @NullEncoded var through: String?
}
