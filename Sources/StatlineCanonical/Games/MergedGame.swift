import StatlineCore

/// A canonical game as the merge makes it: the game the app sees, and which source record each
/// part comes from.
public struct MergedGame: Sendable, Equatable, Codable {
  public typealias Conflict = GameConflict

  /// The canonical game: its id, canonical teams, and each field by the merge's rules.
  public var game: Game
  /// The source game whose status, score, period and clock the game shows.
  public var liveSource: String
  /// Every source game joined to it, by precedence.
  public var sources: [String]
  /// The sources whose away and home are the other way round (a neutral site listed in the
  /// other order): their box scores and plays are turned before they are shown with it.
  public var reversed: [String]
  public var conflict: Conflict?

  public init(game: Game, liveSource: String, sources: [String], reversed: [String] = [], conflict: Conflict?) {
    self.game = game
    self.liveSource = liveSource
    self.sources = sources
    self.reversed = reversed
    self.conflict = conflict
  }

  /// The game as a store keeps it: the merge's facts on the record (`sources`, `liveSource`,
  /// `conflict`), so the next merge and the app both read them.
  public var record: Game {
    var record = game
    record.sources = sources
    record.reversedSources = reversed.isEmpty ? nil : reversed
    record.liveSource = liveSource
    record.conflict = conflict
    record.canonicalId = nil
    return record
  }

  /// The merge a stored canonical record holds (nil for a record that is not one).
  public init?(record: Game) {
    guard record.isCanonical, let liveSource = record.liveSource, let sources = record.sources else { return nil }
    var game = record
    game.sources = nil
    game.reversedSources = nil
    game.liveSource = nil
    game.conflict = nil
    self.init(
      game: game, liveSource: liveSource, sources: sources, reversed: record.reversedSources ?? [],
      conflict: record.conflict)
  }
}
