import StatlineCore

/// The StatBroadcast source plugin: StatCrew game XML (lacrosse, men's and women's).
public enum StatBroadcastSource {
  public static let id = "statbroadcast"

  public static let plugin = SourcePlugin(id: id, name: "StatBroadcast", folder: "StatBroadcast") { _ in
    [
      ParserEntry(
        id: "statbroadcast-game-xml", source: id,
        summary: "StatCrew / TAS / PrestoSports game XML (<lcgame>: lacrosse, men's and women's)", format: .xml,
        urlPatterns: [try URLPattern(#"^https?://archive\.statbroadcast\.com/\d+\.xml"#)],
        sniffer: { page in
          let head = page.prefix(2048)
          return head.contains("<lcgame") || head.contains("<bbgame") || head.contains("<bsgame")
        },
        parser: LCGameParser(), normalizer: LCGameNormalizer())
    ]
  }
}
