/// The rules a poll's week must keep (architecture.md#failure): a week is refused whole when it breaks one,
/// for a ranking with a hole in it would tell the app a wrong rank.
extension BatchValidator {
  static func problems(in ranking: Ranking) -> [String] {
    var problems: [String] = []
    let name = "ranking \(ranking.id)"
    if !isNamespaced(ranking.poll) { problems.append("\(name): poll '\(ranking.poll)' is not namespaced") }
    if ranking.id
      != Ranking.id(poll: ranking.poll, season: ranking.season, edition: ranking.edition, part: ranking.part)
    {
      problems.append("\(name): the id is not the poll, season, edition and part")
    }
    if let part = ranking.part, part < 2 { problems.append("\(name): part \(part) (a first page has none)") }
    if ranking.name.isEmpty { problems.append("\(name): the poll has no name") }
    if ranking.edition.isEmpty { problems.append("\(name): no week or date says which week it is") }
    if let through = ranking.through, !isDate(through) {
      problems.append("\(name): through '\(through)' is not YYYY-MM-DD")
    }
    if ranking.rows.isEmpty { problems.append("\(name): no team is ranked") }
    var last: RankingRow?
    for row in ranking.rows {
      let what = "\(name): rank \(row.rank) (\(row.team.name))"
      if row.rank < 1 { problems.append("\(what) is not 1-based") }
      if row.team.name.isEmpty { problems.append("\(name): rank \(row.rank) names no team") }
      if let last, row.rank < last.rank { problems.append("\(what) comes after rank \(last.rank)") }
      if let last, row.rank == last.rank, !(row.tied && last.tied) {
        problems.append("\(what) is shared with \(last.team.name) but not marked tied")
      }
      if let votes = row.firstPlaceVotes, votes < 0 { problems.append("\(what): negative first-place votes") }
      last = row
    }
    let teams = ranking.rows.map { $0.team.id ?? $0.team.name }
    problems += duplicates(teams, what: "\(name): team").map { $0 + " (ranked twice)" }
    return problems
  }
}
