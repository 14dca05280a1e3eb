import StatlineCore

/// ESPN polls → one `Ranking` per poll and week. A rank without a team is left out and named;
/// teams tied (two at one `current`) are marked tied; a previous rank of 0 is unranked.
struct ESPNRankingsNormalizer: Normalizer {
  func normalize(_ answer: ESPNRankings, page: Page) throws -> Batch {
    var batch = Batch(warnings: answer.warnings)
    for week in answer.weeks {
      let poll = week.poll
      let kind = poll.type ?? PollNameSlug.slug(poll.shortName ?? poll.name ?? "")
      guard !kind.isEmpty, let name = poll.name ?? poll.shortName else {
        batch.warnings.append("a poll with neither a type nor a name: left out")
        continue
      }
      let number = poll.occurrence?.number
      let edition = "t\(week.seasonType)-" + (number.map { String(format: "w%02d", $0) } ?? "w00")
      var rows: [RankingRow] = []
      for rank in poll.ranks ?? [] {
        guard let current = rank.current, let team = team(rank.team, answer) else {
          batch.warnings.append("\(name): a rank without a position or a team: left out")
          continue
        }
        var values: [String: String] = [:]
        if let trend = rank.trend { values["trend"] = trend }
        rows.append(
          RankingRow(
            rank: current, team: team, points: points(rank.points, of: team, in: name, &batch.warnings),
            firstPlaceVotes: rank.firstPlaceVotes, record: rank.record?.summary ?? rank.recordSummary,
            previous: rank.previous.flatMap { $0 > 0 ? $0 : nil }, values: values))
      }
      let counts = Dictionary(rows.map { ($0.rank, 1) }, uniquingKeysWith: +)
      for index in rows.indices where counts[rows[index].rank, default: 0] > 1 { rows[index].tied = true }
      let others = (poll.others ?? []).compactMap { rank -> RankingVotes? in
        team(rank.team, answer).map {
          RankingVotes(team: $0, points: points(rank.points, of: $0, in: name, &batch.warnings))
        }
      }
      batch.rankings.append(
        Ranking(
          poll: "\(ESPNSource.id):\(answer.league)-\(kind)", name: name, sport: answer.sport,
          season: ESPNLeagues.season(espnYear: week.year, sport: answer.sport), edition: edition,
          week: poll.occurrence?.type == "week" ? number : nil, rows: rows, othersReceivingVotes: others,
          url: page.url))
    }
    return batch
  }

  /// A team's points as a whole number; a number no `Int` holds is left out and named.
  func points(_ value: Double?, of team: TeamRef, in poll: String, _ warnings: inout [String]) -> Int? {
    guard let value else { return nil }
    guard let points = ESPNNumber.whole(value) else {
      warnings.append("\(poll): \(team.name)'s points (\(value)) are not a number of points: left out")
      return nil
    }
    return points
  }

  /// The team as the answer names it, inline or through its teams list.
  func team(_ link: ESPNRankingsAnswer.TeamLink?, _ answer: ESPNRankings) -> TeamRef? {
    guard let link, let id = link.id ?? ESPNRankingsParser.teamId(in: link.ref) else { return nil }
    let named = answer.names[id] ?? link
    let name = named.displayName ?? named.location ?? named.nickname ?? named.name
    return TeamRef(id: "\(ESPNSource.id):team-\(id)", name: name ?? "ESPN team \(id)", abbreviation: named.abbreviation)
  }
}

/// A poll's name as a lowercase slug, for an id when ESPN gives no poll type.
enum PollNameSlug {
  static func slug(_ text: String) -> String {
    var slug = ""
    for character in text.lowercased() {
      if character.isLetter || character.isNumber {
        slug.append(character)
      } else if !slug.isEmpty, slug.last != "-" {
        slug.append("-")
      }
    }
    return slug.hasSuffix("-") ? String(slug.dropLast()) : slug
  }
}
