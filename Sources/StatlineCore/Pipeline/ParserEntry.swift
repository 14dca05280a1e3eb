import Foundation

/// A parser as the registry knows it: who it is, which pages it claims, and how to run it.
///
/// Built from a `PageParser` and a `Normalizer`; the registry and the pipeline see only this
/// type-erased form.
public struct ParserEntry: Sendable {
  public let id: String
  /// The id of the plugin that brings it.
  public let source: String
  /// One line for `statline sources`.
  public let summary: String
  public let format: DocumentFormat
  /// A page whose URL matches one of these is claimed by this parser.
  public let urlPatterns: [URLPattern]
  /// Claims a page by its content when its URL is unknown or matches nothing.
  public let sniffer: (@Sendable (Page) -> Bool)?
  /// Breaks ties between parsers that claim the same page: higher wins. Site plugins use
  /// `Priority.site`, declarative configs `Priority.generic`.
  public let priority: Int
  /// For discovery parsers (schedules, calendars, scoreboards): the game targets a batch asks
  /// for. The engine creates those whose game is live or final.
  public let discover: (@Sendable (Batch) -> [DiscoveredTarget])?
  /// A site's own change protocol (StatBroadcast's `Filetime`): the response headers to
  /// remember between polls, and how the next request's URL carries them. A page answered
  /// with 204 No Content or 304 is then unchanged.
  public let delta: Delta?
  /// Statuses that mean the page does not exist yet rather than a refusal or an error
  /// (StatBroadcast's archive answers 403 or 404 for a game it has not archived): the target
  /// backs off, but the host's breaker is not charged and nothing is captured.
  public let absentStatuses: Set<Int>
  /// The site's own reading of an answer that is not content (a GraphQL 400 that means a
  /// stale persisted-query hash, a login page served with 200), refining `BlockDetector`'s.
  public let check: (@Sendable (Page) -> StatlineError?)?
  /// The kinds of record the job stores from this parser's batches (nil: all of them). A game
  /// followed through several pages (ncaa.com's game centre, play-by-play and box score) has
  /// one authority per kind, so the pages never take turns writing one record; replay and the
  /// schedule still see the whole batch.
  public let stores: Set<StoreChange.Kind>?
  /// The page carries every play of its games (a play-by-play page, a StatCrew file): a final
  /// game's goal plays must then add up to its score (`BatchValidator`).
  public let carriesEveryPlay: Bool
  /// True for a discovery parser (it asks for game targets, from its batch or its records).
  public let discovers: Bool
  /// The role a configured target of this parser takes unless the configuration says: `poll`
  /// for a poll page, else `discovery` for a discovery parser and `game` for the rest.
  public let role: Target.Role
  /// The sports whose pages it reads (`statline sources` lists them; a plugin discovers a game
  /// target only for a parser that reads the game's sport). Nil: a page of any sport, whose
  /// records do not depend on it (a scoreboard row, a team list, a calendar).
  public let sports: Set<Sport>?

  public struct Delta: Sendable {
    /// Response header names (lower-case) kept after each changed page.
    public var remember: [String]
    /// The URL to fetch for a target, given what was remembered (empty on the first poll) and the
    /// job clock's time (for requests that name a date).
    public var request: @Sendable (_ url: String, _ remembered: [String: String], _ now: Date) -> String
    /// Every `fullEvery`-th request is made as on the first poll (nothing remembered), so a site
    /// that wrongly keeps answering "unchanged" is read again; nil: never.
    public var fullEvery: Int?

    public init(
      remember: [String], fullEvery: Int? = nil,
      request: @escaping @Sendable (_ url: String, _ remembered: [String: String]) -> String
    ) {
      self.init(
        remember: remember, fullEvery: fullEvery, datedRequest: { url, remembered, _ in request(url, remembered) })
    }

    public init(
      remember: [String], fullEvery: Int? = nil,
      datedRequest: @escaping @Sendable (_ url: String, _ remembered: [String: String], _ now: Date) -> String
    ) {
      self.remember = remember.map { $0.lowercased() }
      self.fullEvery = fullEvery
      self.request = datedRequest
    }

    /// Whether the next request is a full one, after `deltaPolls` requests made with what was
    /// remembered.
    public func isFull(after deltaPolls: Int, remembered: [String: String]?) -> Bool {
      guard let remembered, !remembered.isEmpty else { return true }
      guard let fullEvery, fullEvery >= 1 else { return false }
      return deltaPolls + 1 >= fullEvery
    }
  }
  private let run: @Sendable (Page) throws -> (Batch, [DiscoveredTarget])
  private let parseStage: @Sendable (Page) throws -> Void

  public init<P: PageParser, N: Normalizer>(
    id: String, source: String, summary: String, format: DocumentFormat,
    urlPatterns: [URLPattern] = [], priority: Int = Priority.site,
    sniffer: (@Sendable (Page) -> Bool)? = nil, discover: (@Sendable (Batch) -> [DiscoveredTarget])? = nil,
    delta: Delta? = nil, absentStatuses: Set<Int> = [], check: (@Sendable (Page) -> StatlineError?)? = nil,
    stores: Set<StoreChange.Kind>? = nil, carriesEveryPlay: Bool = false, sports: Set<Sport>? = nil,
    role: Target.Role? = nil, discoverRecords: (@Sendable (P.Records) -> [DiscoveredTarget])? = nil, parser: P,
    normalizer: N
  ) where P.Records == N.Records {
    self.delta = delta
    self.check = check
    self.stores = stores
    self.carriesEveryPlay = carriesEveryPlay
    self.sports = sports
    self.absentStatuses = absentStatuses
    self.discover = discover
    self.discovers = discover != nil || discoverRecords != nil
    self.role = role ?? (discovers ? .discovery : .game)
    self.id = id
    self.source = source
    self.summary = summary
    self.format = format
    self.urlPatterns = urlPatterns
    self.sniffer = sniffer
    self.priority = priority
    self.run = { page in
      let records = try parser.parse(page)
      return (try normalizer.normalize(records, page: page), discoverRecords?(records) ?? [])
    }
    self.parseStage = { page in _ = try parser.parse(page) }
  }

  /// The parse stage alone: the page read into its parser's records, not normalized or
  /// validated (what a peer that only extracts the page's values does; `bench parser`).
  public func parseOnly(_ page: Page) throws { try parseStage(page) }

  /// Parses and normalizes one page (without validation: see `PagePipeline`).
  public func process(_ page: Page) throws -> Batch { try run(page).0 }

  /// The batch, and the game targets the page's records ask for (for parsers whose records
  /// know more than the model keeps: a web-service event's XML file name, say).
  public func processDiscovering(_ page: Page) throws -> (batch: Batch, discovered: [DiscoveredTarget]) {
    try run(page)
  }

  /// Why the page is no content to parse (`BlockDetector`'s walls, then the parser's own check), or nil.
  public func refusal(_ page: Page) -> StatlineError? { BlockDetector.check(page, site: check) }

  /// Whether it reads pages of `sport` (every sport when it declares none).
  public func reads(_ sport: Sport) -> Bool { sports?.contains(sport) ?? true }

  public func claims(url: String) -> Bool { urlPatterns.contains { $0.matches(url) } }

  /// Whether the entry's sniffer recognises the page, which must first be of the entry's format.
  public func sniffs(_ page: Page) -> Bool {
    guard let sniffer, format.admits(page) else { return false }
    return sniffer(page)
  }

  public enum Priority {
    public static let site = 100
    public static let generic = 10
  }
}
