import Foundation
import StatlineCore
import Testing

@testable import NCAASource

/// A persisted query's variables and URL parts, written without Foundation where they are
/// plain, must be what Foundation writes: a target's URL is its identity in the store.
@Suite struct PersistedQueryWritingTests {
  static func foundation(_ object: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func plainVariablesAreWrittenAsJSONSerializationWritesThem() throws {
    let cases: [[String: Any]] = [
      [:], ["contestId": "6599967", "staticTestEnv": NSNull()],
      ["id": "6599967", "week": NSNull(), "staticTestEnv": NSNull()],
      ["sportCode": "MLA", "division": 1, "seasonYear": 2025, "contestDate": "03/07/2026", "path": "c/d ~%"],
      ["zeta": -12, "Alpha": 0, "beta": " spaced ", "Gamma": "\u{7F}"],
    ]
    for variables in cases {
      #expect(PersistedQuery.plainCompact(variables) != nil, "\(variables)")
      #expect(PersistedQuery.compact(variables) == Self.foundation(variables), "\(variables)")
    }
    // Keys JSONSerialization orders its own way (case, punctuation, digits): left to it.
    for variables: [String: Any] in [["z": 1, "Z": 2], ["_": 1, "~": 2, "a": 3], ["a10": 1, "a9": 2]] {
      #expect(PersistedQuery.plainCompact(variables) == nil, "\(variables)")
      #expect(PersistedQuery.compact(variables) == Self.foundation(variables), "\(variables)")
    }
    // Not plain: left to JSONSerialization, whatever it writes.
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(#"{"flag":true,"n":2.5,"q":"a\"b","é":"x","t":"\n"}"#.utf8))
        as? [String: Any])
    for (key, value) in parsed {
      #expect(PersistedQuery.plainCompact([key: value]) == nil, "\(key)")
      #expect(PersistedQuery.compact([key: value]) == Self.foundation([key: value]), "\(key)")
    }
  }

  @Test func urlPartsArePercentEncodedAsFoundationEncodesThem() {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    var random = SystemRandomNumberGenerator()
    var texts = [#"{"contestId":"6599967","staticTestEnv":null}"#, "GetContests_web", "", "café ü", "a b+c&d=e"]
    for _ in 0..<500 {
      texts.append(
        String(
          (0..<Int.random(in: 0...30, using: &random)).map { _ in
            Character(Unicode.Scalar(UInt8.random(in: 0...127, using: &random)))
          }))
    }
    for text in texts {
      #expect(
        PersistedQuery.encode(text) == text.addingPercentEncoding(withAllowedCharacters: allowed),
        "\(text.debugDescription)")
    }
  }

  /// The game-centre URLs a scoreboard writes for every game, written directly, are the URLs the
  /// general writer gives (plain ids; anything else goes through it).
  @Test func contestURLsAreWhatTheGeneralWriterWrites() {
    for id in ["6599967", "1", "abc123", "x y", "é", ""] {
      for origin in [nil, "http://127.0.0.1:8080/"] {
        for operation in [PersistedQuery.playByPlay, PersistedQuery.boxScore] {
          #expect(
            PersistedQuery.contestURL(operation: operation, contestId: id, origin: origin)
              == PersistedQuery.url(
                operation: operation, variables: ["contestId": id, "staticTestEnv": NSNull()], origin: origin),
            "\(id)")
        }
        #expect(
          PersistedQuery.gameInfoURL(contestId: id, origin: origin)
            == PersistedQuery.url(
              operation: PersistedQuery.gameInfo, variables: ["id": id, "week": NSNull(), "staticTestEnv": NSNull()],
              origin: origin),
          "\(id)")
      }
    }
  }

  /// A URL read by hand (`PlainURL`) gives the parameters and origin `URLComponents` gives, on
  /// 20,000 URLs of random parts: schemes, hosts, ports, paths and queries with escapes, braces,
  /// `+`, empty pairs, names without values, fragments and bytes it must leave to Foundation.
  @Test func aURLReadByHandReadsAsURLComponentsReadsIt() {
    var generator = SystemRandomNumberGenerator()
    func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &generator)! }
    let pieces = [
      "a", "Z9", "-", ".", "_", "~", "%20", "%7B%22id%22%3A%226599967%22%7D", "%E2%80%94", "%ZZ", "%4", "+", "!", "$",
      "'", "(", ")", "*", ",", ";", ":", "@", "/", "{", "}", " ", "é", "%FF", "=",
    ]
    func part(_ count: Int) -> String { (0..<count).map { _ in pick(pieces) }.joined() }
    var urls = [
      "https://sdataprod.ncaa.com/?meta=GetContests_web&variables=%7B%22contestDate%22%3A%2203%2F20%2F2026%22%2C%22division%22%3A1%2C%22sportCode%22%3A%22MBB%22%2C%22week%22%3Anull%7D",
      "http://127.0.0.1:8080/gql?meta=x", "https://host", "https://host/", "https://host?x=1", "https://host/p?",
      "https://host/p?a", "https://host/p?a=&b", "https://host/p?a=1&a=2", "https://host:0080/", "https://user@host/",
      "HTTPS://host/", "https://host/p#frag?x=1", "https://host/p?x=1#f", "ftp://host/", "https://host/a%20b?x=1",
    ]
    for _ in 0..<20_000 {
      let scheme = pick(["https://", "http://", "https://", "HTTP://", "ftp://"])
      let host = pick(["sdataprod.ncaa.com", "127.0.0.1", "mirror-1.test", "h", "", "user@h", "h_1", "[::1]"])
      let port = pick(["", "", ":8080", ":0", ":08", ":65535", ":99999", ":"])
      let path = pick(["", "/", "/graphql", "/a/b", "/" + part(3), "/a%20b"])
      let query = pick([
        "", "?", "?meta=x", "?" + part(4) + "=" + part(5), "?a=" + part(3) + "&b" + "&c=" + part(2), "?&", "?a=1&&b=2",
      ])
      let fragment = pick(["", "", "", "#f", "#" + part(2)])
      urls.append(scheme + host + port + path + query + fragment)
    }
    var plain = 0
    for url in urls {
      if PlainURL(url) != nil { plain += 1 }
      #expect(PersistedQuery.parameters(of: url) == PersistedQuery.foundationParameters(of: url), "\(url)")
      #expect(PersistedQuery.origin(of: url) == PersistedQuery.foundationOrigin(of: url), "\(url)")
    }
    #expect(plain > 1_000, "the hand path is taken often enough to be tested: \(plain)")
  }

  /// A play-by-play's title says basketball by its first word, whatever its case and the spaces
  /// before it, as splitting and upper-casing it did.
  @Test func aTitleSaysBasketballByItsFirstWord() {
    func split(_ title: String?) -> Sport? {
      switch title?.split(separator: " ").first?.uppercased() {
      case "MBB": .basketballMen
      case "WBB": .basketballWomen
      default: nil
      }
    }
    let titles: [String?] = [
      nil, "", " ", "MBB PLAY-BY-PLAY", "wbb play-by-play", "  MBB", "MBB", "MBBX PLAY", "MB", "MLA PLAY-BY-PLAY",
      "Wbb", "MBB\tX", "éBB", "M B B", "WBB  PLAY",
    ]
    for title in titles { #expect(NCAAGraphQLGame.basketball(title: title) == split(title), "\(title ?? "nil")") }
  }

  /// The query's `sportCode` read off the URL's bytes must be what the URL's parameters and the
  /// JSON tape read, on 20,000 queries of random variables (decoys in other strings, repeated
  /// and escaped names, values that are not plain), as written and as requested with a hash.
  @Test func aSportCodeReadOffTheBytesIsTheOneTheVariablesSay() {
    var generator = SystemRandomNumberGenerator()
    func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &generator)! }
    let values: [Any] = [
      "MBB", "mla", "WSB2", "", "M B", "MFB\"", "é", "a/b", "x%22", #""sportCode":"ZZ""#, "sportCode", 1, 2026,
      NSNull(),
    ]
    let keys = ["contestDate", "division", "sportCode", "sportCode", "week", "seasonYear", "sportcode", "a"]
    var plain = 0
    for round in 0..<20_000 {
      var variables: [String: Any] = [:]
      for _ in 0..<Int.random(in: 0...4, using: &generator) { variables[pick(keys)] = pick(values) }
      var url = PersistedQuery.url(
        operation: "GetContests_web", variables: variables,
        origin: pick([nil, "http://127.0.0.1:8080/", "https://mirror.test/gql"]))
      if round % 2 == 0 { url = PersistedQuery.request(url, hashes: [:], now: Date(timeIntervalSince1970: 0)) }
      if round % 7 == 0 { url += pick(["&variables=%7B%7D", "#f", "&x=1"]) }
      if PersistedQuery.plainVariable("sportCode", in: url) != nil { plain += 1 }
      #expect(NCAAGraphQLGame.sportCode(of: url) == NCAAGraphQLGame.parsedSportCode(of: url), "\(url)")
    }
    #expect(plain > 1_000, "the byte path is taken often enough to be tested: \(plain)")
  }

  /// An entry's flat score "(visitor-home)" read off its bytes is what splitting it reads, on
  /// 40,000 texts, half of random parts (spaces, signs, letters, several dashes, long numbers).
  @Test func aFlatScoreReadOffTheBytesIsWhatSplittingItReads() {
    func split(_ text: String) -> (away: Int, home: Int)? {
      let inner = text.utf8.first == UInt8(ascii: "(") && text.utf8.last == UInt8(ascii: ")")
      return inner ? PlayRow.score(String(text.dropFirst().dropLast())) : nil
    }
    var generator = SystemRandomNumberGenerator()
    let pieces = ["0", "3", "12", "-", " ", "+", "a", "(", ")", "007", "99999999999", "é"]
    var texts = [
      "(0-3)", "(12-9)", "(9999999999999999999)", "(123456789-1234567890)", "(0 - 3)", "(-3)", "(3-)", "()", "(1-2-3)",
      "0-3", "(+1-2)", "(1234567890-1)",
    ]
    for _ in 0..<20_000 {
      let inner = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
      texts.append("(" + inner.joined() + ")")
      texts.append("(\(Int.random(in: 0...150, using: &generator))-\(Int.random(in: 0...150, using: &generator)))")
    }
    var plain = 0
    for text in texts {
      if GraphQLPlayByPlayNormalizer.plainFlatScore(text) != nil { plain += 1 }
      let read = GraphQLPlayByPlayNormalizer.flatScore(text)
      let expected = split(text)
      #expect(read?.away == expected?.away && read?.home == expected?.home, "\(text)")
    }
    #expect(plain > 10_000, "the byte path is taken often enough to be tested: \(plain)")
  }
}
