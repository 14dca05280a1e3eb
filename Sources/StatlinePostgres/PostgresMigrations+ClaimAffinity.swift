/// Migration 9: a target remembers the worker that claimed it last (`targets.last_claimant`, set
/// by the claim), and a claim leaves another worker's target to that worker for
/// `PostgresStore.claimAffinity` after it falls due. A worker remembers the records it wrote
/// (`RecentRecords`), the states it committed (`CommittedTargets`) and the canonical games of
/// its polls, and checks a poll against that memory instead of encoding every record to JSON
/// and reading the store; with targets passing between workers at random, half the polls of two
/// workers found nothing in their worker's memory. Past the grace any worker takes the target
/// (a worker that is busy, stopped or dead holds nothing up for longer); a target never claimed
/// is anyone's.
extension PostgresMigrations {
  static let claimAffinity = """
    ALTER TABLE targets ADD COLUMN last_claimant text;
    """
}
