import StatlineCore

/// Maps a config's rows onto the normalized model.
public struct GenericNormalizer: Normalizer {
  public let config: GenericConfig

  public init(config: GenericConfig) { self.config = config }

  public func normalize(_ records: GenericRecords, page: Page) throws -> Batch {
    var batch = Batch(warnings: config.warnings)
    for row in records.games { batch.games.append(try GameFields.game(from: row, config: config)) }
    for row in records.teams { batch.teams.append(try TeamFields.team(from: row, config: config)) }
    return batch
  }
}
