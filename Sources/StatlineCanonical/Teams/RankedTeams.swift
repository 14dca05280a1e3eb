import StatlineCore

/// A poll names schools as its source prints them; the registry says which canonical team each
/// is (architecture.md#canonical-games). The store resolves a ranking's teams before it writes the week, so the
/// stored week, its delta-sync record and its `ranking.published` event carry canonical ids.
extension CanonicalStep {
  /// The batch with every ranked (and vote-receiving) team's canonical id filled in where the
  /// registry resolves it; a team that does not resolve keeps nil, and its printed name.
  public func resolvingRankings(_ batch: Batch) -> Batch {
    guard !batch.rankings.isEmpty else { return batch }
    var batch = batch
    batch.rankings = batch.rankings.map(resolved)
    return batch
  }

  public func resolved(_ ranking: Ranking) -> Ranking {
    var ranking = ranking
    for index in ranking.rows.indices {
      ranking.rows[index].canonicalTeamId = canonicalId(of: ranking.rows[index].team)
    }
    for index in ranking.othersReceivingVotes.indices {
      ranking.othersReceivingVotes[index].canonicalTeamId = canonicalId(of: ranking.othersReceivingVotes[index].team)
    }
    return ranking
  }

  private func canonicalId(of team: TeamRef) -> String? {
    merger.registry.resolve(SourceTeam(team))?.team.id
  }
}
