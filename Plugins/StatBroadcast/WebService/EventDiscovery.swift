import StatlineCore

/// Where a web-service event is followed: a completed or archived game of a sport the game XML
/// reads at its archive XML (the dependable path, STRUCTURE.md §5a); a game under way through
/// the broadcast view of its sport, when that view's XSL is known. Each target carries the
/// event's sport, so a view (which names only `bsgame`) knows baseball from softball.
enum EventDiscovery {
  static let knownXSL = ["bsgame": "baseball/sb.bsgame.views.broadcast.xsl"]
  /// The StatCrew roots the game XML parser reads.
  static let archived: Set<String> = ["lcgame", "bbgame", "wbbgame", "bsgame", "sbgame", "fbgame", "sogame", "vbgame"]

  static func targets(for event: EventRecord, gameURL: String, xsl: (String) -> String?) -> [DiscoveredTarget] {
    guard let id = event.attributes["id"], !id.isEmpty else { return [] }
    let gameId = "\(StatBroadcastSource.id):\(id)"
    let sport = event.fields["sport"] ?? ""
    let known = WebServiceSports.sport(code: sport, gender: event.fields["gender"], name: event.fields["sportLong"])
    let hint = known == .unknown ? nil : known
    let finished = event.attributes["completed"] == "1" || event.attributes["archived"] == "1"
    if finished {
      guard Self.archived.contains(sport) else { return [] }
      return [
        DiscoveredTarget(
          gameId: gameId,
          target: Target(
            url: gameURL.replacingOccurrences(of: "{id}", with: id), source: StatBroadcastSource.id,
            parser: StatBroadcastSource.gameParser, role: .game, sport: hint))
      ]
    }
    guard let xml = event.fields["xmlfile"], !xml.isEmpty, let view = xsl(sport) ?? knownXSL[sport] else { return [] }
    let url = WebServiceCodec.statsURL(.init(event: id, xml: xml, xsl: view, sport: sport))
    return [
      DiscoveredTarget(
        gameId: gameId,
        target: Target(
          url: url, source: StatBroadcastSource.id, parser: "statbroadcast-broadcast-view", role: .game, sport: hint))
    ]
  }
}
