import Foundation
import StatlineCore

/// ncaa.com's GraphQL persisted queries (STRUCTURE.md §5b): `GET https://sdataprod.ncaa.com/
/// ?meta={operation}&extensions={"persistedQuery":{"version":1,"sha256Hash":"…"}}&variables={…}`.
///
/// A target's URL names the operation and its variables only; the hash is added at request
/// time from the configuration (`sources.ncaa.options.hash.<operation>`), because ncaa.com
/// rotates hashes when it redeploys: a new hash is a configuration change, not a new target.
enum PersistedQuery {
  static let host = "sdataprod.ncaa.com"
  static let contests = "GetContests_web"
  static let gameInfo = "GetGamecenterGameById_web"
  static let playByPlay = "NCAA_GetGamecenterPbpGenericById_web"
  /// Football's play-by-play has a query of its own (seen in a public script, 2024), answering
  /// in the generic shape.
  static let playByPlayFootball = "NCAA_GetGamecenterPbpFootballById_web"
  static let boxScore = "NCAA_GetGamecenterBoxscoreLacrosseById_web"
  /// Basketball's and soccer's box scores have queries of their own (each seen, with its hash,
  /// in public scripts that read them, 2025-26), answering in lacrosse's shape with each sport's
  /// members.
  static let boxScoreBasketball = "NCAA_GetGamecenterBoxscoreBasketballById_web"
  static let boxScoreSoccer = "NCAA_GetGamecenterBoxscoreSoccerById_web"
  static let boxScores = [boxScore, boxScoreBasketball, boxScoreSoccer]

  /// The box-score query of a sport, or nil where none is known.
  static func boxScore(for sport: Sport) -> String? {
    switch sport {
    case .lacrosseMen, .lacrosseWomen: boxScore
    case .basketballMen, .basketballWomen: boxScoreBasketball
    case .soccerMen, .soccerWomen: boxScoreSoccer
    default: nil
    }
  }

  /// The newest hashes seen (2026-07/08; basketball's and soccer's box scores: public scripts of
  /// 2025-26); configuration overrides them.
  static let defaultHashes: [String: String] = [
    contests: "4bcb5e6432fa9da365c0c19af01b1f9015cc7eb5c21e7af2dba308784a166df7",
    gameInfo: "26d14df5714c5cd454c9032a1f8ebb1b1dc35173065ab858709b0fa84dd07b5f",
    playByPlay: "57f922d56d60d88326b62202b3d88e8cd3cfb6687931bc0b5b3dfab089b84faa",
    playByPlayFootball: "47928f2cabc7a164f0de0ed535a623bdf5a852cce7c30d6a6972a38609ba46a2",
    boxScore: "dfd0e926e92e81c2917b8f4ae564fbdcd5c69cd0441a2a8095b6b09e4cee7c36",
    boxScoreBasketball: "4a7fa26398db33de3ff51402a90eb5f25acef001cca28d239fe5361315d1419a",
    boxScoreSoccer: "c9070c4e5a76468a4025896df89f8a7b22be8275c54a22ff79619cbb27d63d7d",
  ]

  /// A string variable of a URL's `variables` parameter read straight off its bytes, where it is
  /// plain: the one `variables=` parameter holds the name once, as a key right after `{` or `,`,
  /// percent-encoded as this plugin writes it (`%2C%22name%22%3A%22VALUE%22`), its value of ASCII
  /// letters and digits. Anything else is nil, and is read the long way (`parameters(of:)` and the
  /// JSON tape), which agrees with this wherever it reads the URL.
  static func plainVariable(_ name: String, in url: String) -> String? {
    var url = url
    var name = name
    return url.withUTF8 { bytes -> String? in
      name.withUTF8 { name -> String? in
        func matches(_ needle: UnsafeRawBufferPointer, at index: Int) -> Bool {
          index >= 0 && index + needle.count <= bytes.count
            && (needle.isEmpty || memcmp(bytes.baseAddress! + index, needle.baseAddress!, needle.count) == 0)
        }
        func matches(_ needle: StaticString, at index: Int) -> Bool {
          matches(UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), at: index)
        }
        // The one `variables=` parameter of the query, up to the next `&` or `#`; counted in one
        // pass, each byte compared once (no list of places is made).
        guard let query = bytes.firstIndex(of: UInt8(ascii: "?")), !bytes[..<query].contains(UInt8(ascii: "#")) else {
          return nil
        }
        var start: Int?
        var fragment = false
        for index in query..<bytes.count {
          if bytes[index] == UInt8(ascii: "#") { fragment = true }
          guard bytes[index] == UInt8(ascii: "v"), matches("variables=", at: index),
            bytes[index - 1] == UInt8(ascii: "?") || bytes[index - 1] == UInt8(ascii: "&")
          else { continue }
          guard start == nil, !fragment else { return nil }
          start = index + 10
        }
        guard var end = start, let start, !name.isEmpty else { return nil }
        while end < bytes.count, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "#") { end += 1 }
        // The name once in the parameter, opening `%22name%22%3A%22` after `{` or `,`.
        let nameBytes = UnsafeRawBufferPointer(name)
        var named: Int?
        for index in start..<end where bytes[index] == name[0] && matches(nameBytes, at: index) {
          guard named == nil else { return nil }
          named = index
        }
        guard let named, matches("%22", at: named - 3),
          matches("%22%3A%22", at: named + name.count), matches("%7B", at: named - 6) || matches("%2C", at: named - 6)
        else { return nil }
        let first = named + name.count + 9
        var index = first
        while index < end, bytes[index] &- UInt8(ascii: "0") < 10 || (bytes[index] | 0x20) &- UInt8(ascii: "a") < 26 {
          index += 1
        }
        guard index > first, matches("%22", at: index), index + 3 <= end else { return nil }
        return String(decoding: bytes[first..<index], as: UTF8.self)
      }
    }
  }

  /// The URL of a query without its hash: what a target stores.
  /// - Parameter origin: where to ask (`https://sdataprod.ncaa.com/` unless a page at another
  ///   origin, a mirror or a loopback site, listed the game).
  static func url(operation: String, variables: [String: Any], origin: String? = nil) -> String {
    (origin ?? "https://\(host)/") + "?meta=\(encode(operation))&variables=\(encode(compact(variables)))"
  }

  /// The game-centre queries of one contest.
  static func contestURL(operation: String, contestId: String, origin: String? = nil) -> String {
    guard isPlain(contestId) else {
      return url(operation: operation, variables: ["contestId": contestId, "staticTestEnv": NSNull()], origin: origin)
    }
    // What `url(operation:variables:)` writes for these variables, written directly: a
    // scoreboard makes three of these per game, and the dictionary route was most of its reading.
    return FastText.joined(
      origin ?? "https://\(host)/", "?meta=", encode(operation), "&variables=%7B%22contestId%22%3A%22", contestId,
      "%22%2C%22staticTestEnv%22%3Anull%7D")
  }

  /// `GetGamecenterGameById_web` of one contest (`id`, `week` and `staticTestEnv`).
  static func gameInfoURL(contestId: String, origin: String? = nil) -> String {
    guard isPlain(contestId) else {
      return url(
        operation: gameInfo, variables: ["id": contestId, "week": NSNull(), "staticTestEnv": NSNull()], origin: origin)
    }
    return FastText.joined(
      origin ?? "https://\(host)/", "?meta=", gameInfo, "&variables=%7B%22id%22%3A%22", contestId,
      "%22%2C%22staticTestEnv%22%3Anull%2C%22week%22%3Anull%7D")
  }

  /// Letters and digits only: a value that percent-encoding and JSON leave as it is.
  private static func isPlain(_ value: String) -> Bool {
    !value.isEmpty
      && value.utf8.allSatisfy {
        ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
          || $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
      }
  }

  /// The URL to fetch, at the target's own origin: the target's operation and variables (made compact, `contestDate`
  /// "today" made the date at `now` on the US East Coast, where ncaa.com's days turn over, and
  /// `seasonYear` filled in from `contestDate` when missing) with the configured hash. A URL
  /// that is no persisted query is returned as it is.
  static func request(_ url: String, hashes: [String: String], now: Date) -> String {
    let query = parameters(of: url)
    guard let operation = query["meta"], let hash = hashes[operation] ?? defaultHashes[operation] else { return url }
    var variables =
      query["variables"].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
      ?? [:]
    if (variables["contestDate"] as? String)?.lowercased() == "today" {
      variables["contestDate"] = eastCoastDate(now)
    }
    if variables["seasonYear"] == nil, let date = variables["contestDate"] as? String, let year = seasonYear(date) {
      variables["seasonYear"] = year
    }
    let extensions = #"{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#
    return origin(of: url) + "?meta=\(encode(operation))&extensions=\(encode(extensions))"
      + "&variables=\(encode(compact(variables)))"
  }

  /// The target's own scheme, host, port and path (a mirror or a loopback site is asked where it
  /// is, never sent to ncaa.com).
  static func origin(of url: String) -> String {
    if let plain = PlainURL(url) { return plain.origin }
    return foundationOrigin(of: url)
  }

  /// `origin(of:)` through `URLComponents`: what `PlainURL` must agree with.
  static func foundationOrigin(of url: String) -> String {
    guard let components = URLComponents(string: url) ?? URLComponents(string: escapedBraces(url)),
      let scheme = components.scheme, let host = components.host
    else { return "https://\(self.host)/" }
    let port = components.port.map { ":\($0)" } ?? ""
    return "\(scheme)://\(host)\(port)\(components.path.isEmpty ? "/" : components.path)"
  }

  /// `MM/DD/YYYY` of `now` in New York.
  static func eastCoastDate(_ now: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600)!
    let day = calendar.dateComponents([.year, .month, .day], from: now)
    return "\(FastText.twoDigits(day.month ?? 1))/\(FastText.twoDigits(day.day ?? 1))/\(day.year ?? 1970)"
  }

  /// ncaa.com's `seasonYear` is the year the season started: spring 2026 games are season 2025.
  /// `contestDate` is `MM/DD/YYYY`; months from August on start a season.
  static func seasonYear(_ contestDate: String) -> Int? {
    let parts = contestDate.split(separator: "/")
    guard parts.count == 3, let month = Int(parts[0]), let year = Int(parts[2]) else { return nil }
    return month >= 8 ? year : year - 1
  }

  /// The operation and decoded variables of a query URL.
  static func parameters(of url: String) -> [String: String] {
    if let plain = PlainURL(url), let parameters = plain.parameters { return parameters }
    return foundationParameters(of: url)
  }

  /// `parameters(of:)` through `URLComponents`: what `PlainURL` must agree with.
  static func foundationParameters(of url: String) -> [String: String] {
    guard let components = URLComponents(string: url) ?? URLComponents(string: escapedBraces(url)) else { return [:] }
    var result: [String: String] = [:]
    for item in components.queryItems ?? [] { result[item.name] = item.value ?? "" }
    return result
  }

  /// JSON without spaces (ncaa.com answers 500 to spaced JSON), keys sorted, slashes as they are.
  static func compact(_ object: [String: Any]) -> String {
    if let plain = plainCompact(object) { return plain }
    guard
      let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// `compact` of the variables every discovered game's targets have (names of ASCII letters;
  /// plain strings, integers and nulls), written here: `JSONSerialization` made a third of reading a
  /// scoreboard that lists its games' targets. Anything else is nil, and left to it.
  static func plainCompact(_ object: [String: Any]) -> String? {
    func plain(_ text: String) -> Bool {
      text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
    // Keys of ASCII letters, in `JSONSerialization`'s `.sortedKeys` order (case-insensitive):
    // two that differ only in case, or other keys, are left to it.
    let keys = object.keys.map { (key: $0, folded: $0.lowercased()) }.sorted { $0.folded < $1.folded }
    guard
      keys.allSatisfy({
        $0.key.utf8.allSatisfy { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
      }),
      Set(keys.map(\.folded)).count == keys.count
    else { return nil }
    var fields: [String] = []
    for key in keys.map(\.key) {
      guard let value = object[key] else { return nil }
      switch value {
      case is NSNull: fields.append("\"\(key)\":null")
      case let text as String where plain(text): fields.append("\"\(key)\":\"\(text)\"")
      // A Swift `Int` only: a parsed `NSNumber` may be a Boolean, which `as? Int` would take.
      case let number as Int where type(of: value) == Int.self: fields.append("\"\(key)\":\(number)")
      default: return nil
      }
    }
    return "{" + fields.joined(separator: ",") + "}"
  }

  static func encode(_ value: String) -> String {
    func unreserved(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        true
      default: false
      }
    }
    // Nothing to encode (an operation's name): the value itself.
    if value.utf8.allSatisfy(unreserved) { return value }
    // ASCII (nearly every value) byte by byte; others as Foundation encodes them.
    if value.utf8.allSatisfy({ $0 < 0x80 }) {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(value.utf8.count * 3)
      for byte in value.utf8 {
        if unreserved(byte) {
          bytes.append(byte)
        } else {
          bytes.append(UInt8(ascii: "%"))
          bytes.append(upperHex[Int(byte >> 4)])
          bytes.append(upperHex[Int(byte & 0xF)])
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
  }

  private static let upperHex = Array("0123456789ABCDEF".utf8)

  /// A hand-written URL may carry raw JSON (`variables={"sportCode":"MLA"}`).
  private static func escapedBraces(_ url: String) -> String {
    url.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.union(CharacterSet(charactersIn: "%"))) ?? url
  }
}
