/// One game as the app sees it (architecture.md#the-contract).
///
/// Unknown values are `nil` and encode as JSON `null`, never as empty strings or zeros.
public struct Game: Codable, Sendable, Hashable {
  /// Namespaced by source: `ncaa:6310104`, `statbroadcast:407823`.
  public var id: String
  public var sport: Sport
  public var status: GameStatus
  /// 1-based; overtime continues the count (5 = first overtime in lacrosse).
  @NullEncoded public var period: Int?
  /// The period as the site shows it ("2nd", "1 OT", "Half").
  @NullEncoded public var periodLabel: String?
  /// Time remaining in the period, `MM:SS`.
  @NullEncoded public var clock: String?
  /// `YYYY-MM-DD`, local to the venue.
  @NullEncoded public var date: String?
  /// ISO 8601 with offset.
  @NullEncoded public var startTime: String?
  @NullEncoded public var venue: String?
  @NullEncoded public var attendance: Int?
  @NullEncoded public var neutralSite: Bool?
  public var away: TeamLine
  public var home: TeamLine
  /// Which game of a doubleheader this is (1 or 2), where the page numbers it (a schedule's
  /// `02/14/2026(2)`); absent otherwise, so a single game's JSON is unchanged. The canonical
  /// merge matches game 1 to game 1 across sources.
  public var gameNumber: Int?

  // A canonical game's merge (architecture.md#canonical-games). Present only where they apply: a parser's game
  // has none of them, so its JSON is unchanged.

  /// On a canonical game: the source games merged into it, by precedence.
  public var sources: [String]?
  /// On a canonical game: the sources whose away and home are the other way round (a neutral
  /// site listed in the other order); absent when none is.
  public var reversedSources: [String]?
  /// On a canonical game: the source game whose status, score, period and clock it shows.
  public var liveSource: String?
  /// On a canonical game: two sources' finals that disagree, and which was kept.
  public var conflict: GameConflict?
  /// On a source game as the store keeps it: the canonical game it was merged into.
  public var canonicalId: String?
  /// On a canonical game no source holds any more (its last source's teams were corrected, and
  /// it moved): the canonical game that source is in now. The app deletes a retired game; the
  /// store keeps it (with `sources` empty and its last facts) so delta sync can say so, and
  /// leaves it out of every list.
  public var retiredInto: String?

  public init(
    id: String, sport: Sport, status: GameStatus, period: Int? = nil, periodLabel: String? = nil,
    clock: String? = nil, date: String? = nil, startTime: String? = nil, venue: String? = nil,
    attendance: Int? = nil, neutralSite: Bool? = nil, away: TeamLine, home: TeamLine
  ) {
    self.id = id
    self.sport = sport
    self.status = status
    self.period = period
    self.periodLabel = periodLabel
    self.clock = clock
    self.date = date
    self.startTime = startTime
    self.venue = venue
    self.attendance = attendance
    self.neutralSite = neutralSite
    self.away = away
    self.home = home
  }

  /// The prefix of every canonical game's id (`game:2026-03-14:lacrosse-men:342~457`); no
  /// source's id has it.
  public static let canonicalPrefix = "game:"

  /// Whether this is a canonical game (merged from the source games it lists).
  public var isCanonical: Bool { id.hasPrefix(Self.canonicalPrefix) }

  /// Whether this is a canonical game no source holds any more (`retiredInto`): kept for delta
  /// sync, shown in no list.
  public var isRetired: Bool { retiredInto != nil }

  /// The line of one side.
  public subscript(side: Side) -> TeamLine {
    get { side == .home ? home : away }
    set { if side == .home { home = newValue } else { away = newValue } }
  }
}
