import CompressNIO
import Foundation
import NIOCore
import StatlineCore

/// A first-launch bundle (issue 54, docs/api.md#the-first-launch-bundle): one sport's (or every
/// sport's) season as delta sync gives its records (the teams, the season's canonical games,
/// which carry the finals standings are counted from, and the latest week of each poll), with
/// the cursor it is consistent with. An app that installs it and then asks
/// `/v1/changes?since=<cursor>` holds what the store holds: the cursor is the store's version
/// read before any record, so every record written after it comes in the changes (one the bundle
/// already holds in its newer form comes again, the same).
struct FirstLaunchBundle: Encodable {
  var format = Self.format
  var formatVersion = Self.formatVersion
  /// The `since` to send to `/v1/changes` next.
  var cursor: Int64
  @NullEncoded var sport: Sport?
  var season: String
  var teams: [Team]
  var games: [Game]
  var rankings: [Ranking]

  static let format = "statline-bundle"
  static let formatVersion = 1
}

/// Bundles by sport and season, each built at most once per store version (a poll that moves
/// only the schedule does not build it again).
actor BundleCache {
  private var built: [String: (version: Int64, body: [UInt8])] = [:]

  func body(_ key: String, version: Int64) -> [UInt8]? {
    guard let kept = built[key], kept.version == version else { return nil }
    return kept.body
  }

  func store(_ body: [UInt8], for key: String, version: Int64) {
    if built.count >= 32 { built.removeAll(keepingCapacity: true) }
    if let kept = built[key], kept.version > version { return }
    built[key] = (version, body)
  }
}

extension ReadAPI {
  /// `GET /v1/bundle?sport=&season=`.
  func bundle(_ text: String?, stamp: StoreStamp) async throws -> ResponseCache.Entry {
    let query = try APIQuery(text, allowed: ["sport", "season"])
    let sport = try Self.sport(query)
    let season = try Self.season(query, rule: configuration.seasons)
    let body = try await bundleBody(sport: sport, season: season?.year, cursor: stamp.version)
    // Without a season, today's: checked again after midnight.
    return ResponseCache.Entry(
      body: body, cacheControl: configuration.settledCacheControl, expires: season == nil ? nextMidnight() : nil)
  }

  /// The bundle's JSON: of `season` (nil: today's), from the store as of now (`statline export
  /// --bundle` writes it gzipped).
  public func bundleJSON(sport: Sport?, season: Int?) async throws -> [UInt8] {
    try await bundleBody(sport: sport, season: season, cursor: try await reader.version())
  }

  /// The bundle's JSON gzipped, as `statline export --bundle` writes it.
  public static func gzip(_ body: [UInt8]) throws -> [UInt8] {
    var buffer = ByteBuffer(bytes: body)
    var compressed = try buffer.compress(with: .gzip())
    return compressed.readBytes(length: compressed.readableBytes) ?? []
  }

  private func bundleBody(sport: Sport?, season year: Int?, cursor: Int64) async throws -> [UInt8] {
    let rule = configuration.seasons
    let season = year.map(Season.init(year:)) ?? Season(date: today(), rule: rule) ?? Season(year: 1970)
    let key = "\(sport?.rawValue ?? "*")|\(season.year)"
    if let kept = await bundles.body(key, version: cursor) { return kept }
    let games = try await reader.games(sport: sport, date: nil).filter { season.contains($0.date, rule: rule) }
    // Each poll's latest week of the season, as its stored parts (the records delta sync gives).
    let parts = try await reader.rankings(sport: sport, poll: nil).filter { $0.season == season.year }
    var latest: [String: Ranking] = [:]
    for part in parts where latest[part.poll].map({ ($0.season, $0.edition) < (part.season, part.edition) }) ?? true {
      latest[part.poll] = part
    }
    let weeks = Set(latest.values.map(\.weekId))
    let body = Self.encode(
      FirstLaunchBundle(
        cursor: cursor, sport: sport, season: season.text, teams: try await reader.teams(sport: sport), games: games,
        rankings: parts.filter { weeks.contains($0.weekId) }.sorted { $0.id < $1.id }))
    await bundles.store(body, for: key, version: cursor)
    return body
  }
}
