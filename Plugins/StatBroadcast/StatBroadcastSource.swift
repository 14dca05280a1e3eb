import StatlineCore

/// The StatBroadcast source plugin: school event calendars (discovery), StatCrew game XML of
/// every sport but ice hockey, and the web service's event metadata and broadcast views.
///
/// Options (`sources.statbroadcast.options` in the job configuration):
/// - `gameURL`: where a calendar's events are polled, `{id}` standing for the event id
///   (default `https://archive.statbroadcast.com/{id}.xml`).
/// - `xsl.<sport>`: the web service's view for a sport code (`xsl.lcgame`); baseball's broadcast
///   view is known, lacrosse's is not, so a live lacrosse event is followed through the web
///   service only when it is configured.
public enum StatBroadcastSource {
  public static let id = "statbroadcast"
  public static let defaultGameURL = "https://archive.statbroadcast.com/{id}.xml"
  static let gameParser = "statbroadcast-game-xml"
  /// The sports whose StatCrew files the game parser reads (all but ice hockey): a calendar's
  /// events of these sports become game targets.
  static let gameSports: Set<Sport> = [
    .lacrosseMen, .lacrosseWomen, .basketballMen, .basketballWomen, .football, .soccerMen, .soccerWomen,
    .fieldHockey, .volleyballMen, .volleyballWomen, .baseball, .softball,
  ]

  /// One feed, the scorer's own StatCrew file: first for box scores, plays and disputed finals,
  /// after the NCAA's feeds for schedule facts.
  public static let facts = SiteFacts(
    feeds: [SourceFeedFact(name: "statcrew", idPrefix: "statbroadcast:", precedence: 0, scheduleRank: 2)])

  public static let plugin = SourcePlugin(id: id, name: "StatBroadcast", folder: "StatBroadcast", facts: facts) {
    settings in
    let gameURL = settings.option(id, "gameURL") ?? defaultGameURL
    guard gameURL.contains("{id}") else {
      throw StatlineError(
        .configuration, "sources.statbroadcast.options.gameURL has no {id} placeholder: '\(gameURL)'",
        hint: "write it like \(defaultGameURL)")
    }
    return [
      ParserEntry(
        id: "statbroadcast-event-calendar", source: id,
        summary:
          "school event calendar (events/schedule.php?gid=…): games, and game targets for every sport but ice hockey",
        format: .html, urlPatterns: [try URLPattern(#"^https?://(www\.)?statbroadcast\.com/events/schedule\.php"#)],
        sniffer: { page in
          let head = page.prefix(65_536)
          return head.contains("eventCalendar") && head.contains("StatBroadcast")
        },
        discover: { batch in
          batch.games.filter { gameSports.contains($0.sport) }.map { game in
            let native = String(game.id.dropFirst(id.count + 1))
            return DiscoveredTarget(
              gameId: game.id,
              target: Target(
                url: gameURL.replacingOccurrences(of: "{id}", with: native), source: id, parser: gameParser,
                role: .game, sport: game.sport))
          }
        }, parser: CalendarParser(), normalizer: CalendarNormalizer()),
      ParserEntry(
        id: gameParser, source: id,
        summary:
          "StatCrew / TAS / PrestoSports game XML (<lcgame> lacrosse, <bbgame> basketball, <vbgame> volleyball, <sogame> soccer and field hockey, <fbgame> football, <bsgame> baseball and softball)",
        format: .xml,
        urlPatterns: [try URLPattern(#"^https?://archive\.statbroadcast\.com/\d+\.xml"#)],
        sniffer: { page in
          let head = page.prefix(2048)
          return head.contains("<lcgame") || head.contains("<bbgame") || head.contains("<bsgame")
            || head.contains("<vbgame") || head.contains("<sogame") || head.contains("<fbgame")
        },
        // The archive answers 403 or 404 for a game it has not got yet (STRUCTURE.md §5a).
        // The file's <plays> is the whole game: a final game's goal (or score) plays add up to its score.
        absentStatuses: [403, 404], carriesEveryPlay: true, sports: gameSports, parser: StatCrewGameParser(),
        normalizer: StatCrewGameNormalizer()),
      ParserEntry(
        id: "statbroadcast-event", source: id,
        summary: "web-service event metadata (interface/webservice/event/{id}): teams, date, start, venue",
        format: .xml,
        urlPatterns: [try URLPattern(#"^https?://stats\.statbroadcast\.com/interface/webservice/event/\d+"#)],
        discoverRecords: { event in
          EventDiscovery.targets(for: event, gameURL: gameURL, xsl: { sport in settings.option(id, "xsl.\(sport)") })
        }, parser: EventParser(), normalizer: EventNormalizer()),
      ParserEntry(
        id: "statbroadcast-broadcast-view", source: id,
        summary: "web-service broadcast view (interface/webservice/stats?data=…): teams, score, status",
        format: .html,
        urlPatterns: [try URLPattern(#"^https?://stats\.statbroadcast\.com/interface/webservice/stats\?"#)],
        // Read in full every 6th poll, as other clients of the service do (STRUCTURE.md §5a).
        delta: ParserEntry.Delta(remember: ["filetime"], fullEvery: 6) { url, remembered in
          WebServiceCodec.withFiletime(url, remembered["filetime"])
        },
        parser: BroadcastViewParser(), normalizer: BroadcastViewNormalizer()),
    ]
  }
}
