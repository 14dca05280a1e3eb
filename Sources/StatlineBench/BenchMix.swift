import Foundation
import StatlineCore

/// The realistic mix of `bench cycle --mix FOLDER`: the real pages of every
/// kind the plugins read, from `../shared/fixtures/real`, taken in turn by the targets: StatCrew
/// XML of six sports, stats.ncaa.org box scores and play-by-play, ncaa.com's GraphQL
/// play-by-play and casablanca scoreboard, ESPN's scoreboard. Each page changes its bytes every
/// cadence (a comment, or JSON's trailing whitespace) but not its facts, so every poll parses,
/// normalizes, validates, merges and compares the whole page and writes only what its first
/// poll did not: the cost of a Saturday's pages, not of one kind. The pages are finals (the
/// saved ones are); the benchmark's policy polls a final at the live cadence.
///
/// Copies of a StatCrew file that names no StatBroadcast event (`<venue sbid>`) are distinct
/// games: the id comes from each target's URL, and the site moves each copy's date a day further
/// (`DatedPage`), since the same two teams on the same day are one game to the canonical merge,
/// which would make the copies one game reported by hundreds of sources, as no Saturday has.
/// Copies of the other pages are one game per kind, since those pages name their own contest.
enum BenchMix {
  struct Kind: Sendable {
    /// The page, under the real fixtures folder.
    var page: String
    var parser: String
    /// The target's path on the site, `{n}` standing for the target's number.
    var path: String
  }

  static let kinds: [Kind] = [
    Kind(
      page: "statcrew/lcgame-mlax-iona-at-unc-2026-02-15-final.xml", parser: "statbroadcast-game-xml",
      path: "/game/{n}.xml"),
    Kind(
      page: "statcrew/bbgame-mbb-msu-at-kentucky-2025-11-18-final.xml", parser: "statbroadcast-game-xml",
      path: "/game/{n}.xml"),
    Kind(
      page: "statcrew/bsgame-mbase-indiana-at-unc-2026-02-14-g2.xml", parser: "statbroadcast-game-xml",
      path: "/game/{n}.xml"),
    Kind(page: "statcrew/fbgame-duke-at-unc-2025-11-22.xml", parser: "statbroadcast-game-xml", path: "/game/{n}.xml"),
    Kind(
      page: "statcrew/sogame-msoc-washington-vs-ncstate-2025-12-15.xml", parser: "statbroadcast-game-xml",
      path: "/game/{n}.xml"),
    Kind(
      page: "statcrew/vbgame-wvb-miami-at-unc-2025-11-29.xml", parser: "statbroadcast-game-xml", path: "/game/{n}.xml"),
    Kind(
      page: "ncaa-stats/contest-6310104-individual-stats-mlax-final.html", parser: "ncaa-stats-contest-box",
      path: "/contests/6310104/individual_stats?n={n}"),
    Kind(
      page: "ncaa-stats/pbp-6479639-mbb-texastech-at-illinois.html", parser: "ncaa-stats-contest-pbp",
      path: "/contests/6479639/play_by_play?n={n}"),
    Kind(
      // A persisted query's request keeps only its path and variables: the number is in the path.
      page: "ncaa-data/gql-pbp-mla-6599987-final-ot.json", parser: "ncaa-gql-pbp",
      path: "/gql/{n}/?meta=NCAA_GetGamecenterPbpGenericById_web"),
    Kind(
      page: "ncaa-data/casablanca-scoreboard-mbb-d1-2025-02-28.json", parser: "ncaa-casablanca-scoreboard",
      path: "/casablanca/scoreboard/basketball-men/d1/2025/02/28/scoreboard.json?n={n}"),
    Kind(
      page: "espn/espn-scoreboard-mbb-2025-11-26-live.json", parser: "espn-scoreboard",
      path: "/apis/site/v2/sports/basketball/mens-college-basketball/scoreboard?dates=20251126&n={n}"),
  ]

  /// Target `index`'s kind and path.
  static func target(_ index: Int) -> (kind: Kind, path: String) {
    let kind = kinds[index % kinds.count]
    return (kind, kind.path.replacingOccurrences(of: "{n}", with: String(700_000 + index)))
  }

  /// The target number of a mix path: its `n=` (`…?dates=20251126&n=700042`), else the path
  /// segment that is one (`/game/700042.xml`, `/gql/700042/`).
  static func number(in uri: String) -> Int? {
    if let range = uri.range(of: "&n=") ?? uri.range(of: "?n=") {
      return Int(uri[range.upperBound...].prefix { $0.isNumber })
    }
    let path = uri.prefix { $0 != "?" }
    return path.split(separator: "/").lazy.compactMap { Int($0.prefix { $0.isNumber }) }.first { $0 >= 700_000 }
  }

  /// A StatCrew page whose game its URL names, cut around its `<venue date="M/D/YYYY">`: copy
  /// `n` of it is the same game `n` days later.
  struct DatedPage: Sendable {
    let head: String
    let tail: String
    let days: Int

    /// Nil for a page with no venue date, or whose venue names its event (`sbid`): copies of
    /// that page are one game whatever their dates.
    init?(_ text: String) {
      guard let venue = text.range(of: "<venue "),
        let end = text[venue.upperBound...].firstIndex(of: ">"),
        let attribute = text[venue.lowerBound..<end].range(of: " date=\""),
        let close = text[attribute.upperBound..<end].firstIndex(of: "\"")
      else { return nil }
      if let sbid = text[venue.lowerBound..<end].range(of: " sbid=\""), text[sbid.upperBound] != "\"" { return nil }
      let parts = text[attribute.upperBound..<close].split(separator: "/").compactMap { Int($0) }
      guard parts.count == 3 else { return nil }
      head = String(text[..<attribute.upperBound])
      tail = String(text[close...])
      days = CivilDate.days(year: parts[2], month: parts[0], day: parts[1])
    }

    /// The page of copy `copy`: its date `copy` days on.
    func text(copy: Int) -> String {
      let (year, month, day) = CivilDate.fields(days: days + copy)
      return head + "\(month)/\(day)/\(year)" + tail
    }
  }

  /// Each kind's two renderings: the page as saved, and with bytes that change nothing.
  static func renderings(folder: String) throws(StatlineError) -> [[String]] {
    try kinds.map { kind throws(StatlineError) in
      let path = (folder as NSString).appendingPathComponent(kind.page)
      guard let data = FileManager.default.contents(atPath: path) else {
        throw StatlineError(
          .io, "cannot read the real page", location: path,
          hint: "--mix takes the real fixtures folder (../shared/fixtures/real)")
      }
      let text = String(decoding: data, as: UTF8.self)
      return [text, text + (kind.page.hasSuffix(".json") ? "\n" : "\n<!-- the next poll -->\n")]
    }
  }
}
