import Foundation
import StatlineCore

/// One feed's record of a game, as matching and merging see it: the record, its teams resolved
/// through the registry, and when its live facts (status, score, period, clock) last changed.
public struct SourceGame: Sendable, Equatable {
  public var game: Game
  /// The canonical team id of each side, or the source team's own identity when it does not
  /// resolve (then only the same source team matches it).
  public var awayTeam: String
  public var homeTeam: String
  /// When the record's live facts last changed (the store's write time).
  public var liveChangedAt: Date
  /// The feed the record comes from (`SourceFeeds.feed(of:)`).
  public var feed: SourceFeed

  public init(game: Game, awayTeam: String, homeTeam: String, liveChangedAt: Date, feed: SourceFeed) {
    self.game = game
    self.awayTeam = awayTeam
    self.homeTeam = homeTeam
    self.liveChangedAt = liveChangedAt
    self.feed = feed
  }

  /// The record with its teams resolved (a canonical id where the registry finds one, else
  /// `source:` and the team's source id or its name) and its feed told by its id.
  public init(game: Game, registry: TeamRegistry, feeds: SourceFeeds, liveChangedAt: Date) {
    func identity(_ ref: TeamRef) -> String {
      registry.resolve(SourceTeam(ref))?.team.id ?? "source:" + (ref.id ?? ref.name)
    }
    self.init(
      game: game, awayTeam: identity(game.away.team), homeTeam: identity(game.home.team), liveChangedAt: liveChangedAt,
      feed: feeds.feed(of: game.id))
  }

  /// The two teams, in a fixed order (home and away may be swapped between feeds at a neutral site).
  public var pair: [String] { [awayTeam, homeTeam].sorted() }
}
