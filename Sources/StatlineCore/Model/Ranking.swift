/// One week of one poll: the AP Top 25 of week 5, the Inside Lacrosse media poll through
/// January 5 (architecture.md#the-contract, rankings). A poll published again unchanged is the same record, and
/// unchanged; a new week is a new record (its id names the week).
public struct Ranking: Codable, Sendable, Hashable {
  /// `<poll>@<season>/<edition>` (`espn:college-football-ap@2026/t2-w05`), and `/p<part>` for a
  /// paged poll's later pages.
  public var id: String
  /// The poll, namespaced, the same every week (`espn:college-football-ap`,
  /// `ncaa:com-lacrosse-men-d1-inside-lacrosse`).
  public var poll: String
  /// The poll's name as its source prints it (`AP Top 25`, `Inside Lacrosse Men's DI Media Poll`).
  public var name: String
  public var sport: Sport
  /// Statline's season, the academic year it ends in (fall 2025 football is season 2026), as
  /// for games.
  public var season: Int
  /// Which week of the season within the poll, sortable as text: ESPN's `t2-w05` (season type,
  /// week), ncaa.com's through-date `2026-01-05`. The latest week is the greatest.
  public var edition: String
  /// The week's number when the source gives one.
  @NullEncoded public var week: Int?
  /// The last day of games the poll counts (`YYYY-MM-DD`), when the source says
  /// (`Through Games JAN. 5, 2026`).
  @NullEncoded public var through: String?
  /// A paged poll's page (2, 3, …), a record of its own that the read API merges into the week;
  /// nil for a poll on one page, or its first.
  @NullEncoded public var part: Int?
  /// In rank order.
  public var rows: [RankingRow]
  /// "Others receiving votes", when the page lists them.
  public var othersReceivingVotes: [RankingVotes]
  /// The page the week was read from.
  @NullEncoded public var url: String?

  public init(
    poll: String, name: String, sport: Sport, season: Int, edition: String, week: Int? = nil,
    through: String? = nil, part: Int? = nil, rows: [RankingRow] = [], othersReceivingVotes: [RankingVotes] = [],
    url: String? = nil
  ) {
    id = Self.id(poll: poll, season: season, edition: edition, part: part)
    self.poll = poll
    self.name = name
    self.sport = sport
    self.season = season
    self.edition = edition
    self.week = week
    self.through = through
    self.part = part
    self.rows = rows
    self.othersReceivingVotes = othersReceivingVotes
    self.url = url
  }

  public static func id(poll: String, season: Int, edition: String, part: Int? = nil) -> String {
    "\(poll)@\(season)/\(edition)" + (part.map { "/p\($0)" } ?? "")
  }

  /// The week's id (its first part's).
  public var weekId: String { Self.id(poll: poll, season: season, edition: edition) }

  /// The week whole: its parts' rows in part order, the first part's name and votes.
  public static func merged(_ parts: [Ranking]) -> Ranking? {
    let ordered = parts.sorted { ($0.part ?? 1) < ($1.part ?? 1) }
    guard var week = ordered.first else { return nil }
    week.id = week.weekId
    week.part = nil
    week.rows = ordered.flatMap(\.rows)
    week.othersReceivingVotes = ordered.flatMap(\.othersReceivingVotes)
    return week
  }

  /// Every team the week names, ranked or receiving votes, with its canonical id (what
  /// `statline teams unmatched` lists when nil).
  public var namedTeams: [(team: TeamRef, canonicalTeamId: String?)] {
    rows.map { ($0.team, $0.canonicalTeamId) } + othersReceivingVotes.map { ($0.team, $0.canonicalTeamId) }
  }
}

/// One ranked team of a poll's week.
public struct RankingRow: Codable, Sendable, Hashable {
  /// 1-based; teams tied share a rank (`T4` is rank 4, tied).
  public var rank: Int
  public var tied: Bool
  /// The team as the source names it: its source id when it gives one, and the printed name.
  public var team: TeamRef
  /// The canonical team (`team:193`), when the registry resolves the source's team; the
  /// store fills it in. Nil: listed by `statline teams unmatched`, never dropped.
  @NullEncoded public var canonicalTeamId: String?
  @NullEncoded public var points: Int?
  @NullEncoded public var firstPlaceVotes: Int?
  /// As printed (`3-0`, `12-2`).
  @NullEncoded public var record: String?
  /// The rank the week before; nil when the team was unranked (`NR`) or the page does not say.
  @NullEncoded public var previous: Int?
  /// The page's other columns by their header (an RPI page's `RPI`, `SOS`, …), as printed.
  public var values: [String: String]

  public init(
    rank: Int, tied: Bool = false, team: TeamRef, canonicalTeamId: String? = nil, points: Int? = nil,
    firstPlaceVotes: Int? = nil, record: String? = nil, previous: Int? = nil, values: [String: String] = [:]
  ) {
    self.rank = rank
    self.tied = tied
    self.team = team
    self.canonicalTeamId = canonicalTeamId
    self.points = points
    self.firstPlaceVotes = firstPlaceVotes
    self.record = record
    self.previous = previous
    self.values = values
  }
}

/// A team outside the ranks that received votes.
public struct RankingVotes: Codable, Sendable, Hashable {
  public var team: TeamRef
  @NullEncoded public var canonicalTeamId: String?
  @NullEncoded public var points: Int?

  public init(team: TeamRef, canonicalTeamId: String? = nil, points: Int? = nil) {
    self.team = team
    self.canonicalTeamId = canonicalTeamId
    self.points = points
  }
}
