import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import NCAASource

/// `BasketballPlayRows` reads a row's words on its bytes; it must read every text as the
/// lower-casing, splitting reader it replaced (`Reference`, kept here as the oracle) did.
@Suite struct BasketballPlayRowsTests {
  /// The reader before it worked on bytes (2026-11-27, session 28).
  enum Reference {
    static func plays(_ rows: [PlayRow], gameId: String) -> [Play] {
      rows.filter { $0.listed || !$0.text.isEmpty }.enumerated().map { index, row in
        let text = row.text
        let lowered = text.lowercased()
        var (name, rest) = actor(text)
        var details: [String: String] = [:]
        var type = PlayType.other
        var assist: String?
        if lowered.hasSuffix("made") {
          type = .score
          details["points"] =
            FastText.contains(lowered, "3pt") ? "3" : FastText.contains(lowered, "freethrow") ? "1" : "2"
        } else if let made = FastText.split(text, at: " makes ") {
          type = .score
          (name, rest) = made
          let shot = rest.lowercased()
          details["points"] = shot.hasPrefix("three point") ? "3" : shot.hasPrefix("free throw") ? "1" : "2"
          if rest.hasSuffix(" assists)"), let (_, inside) = FastText.split(rest, at: " (") {
            assist = String(inside.dropLast(" assists)".count))
          }
        } else if FastText.contains(lowered, "timeout") {
          type = .timeout
        } else if FastText.contains(lowered, "turnover") {
          type = .turnover
        } else if lowered.hasPrefix("period start") || lowered.hasPrefix("jumpball startperiod") {
          type = .periodStart
        } else if lowered.hasPrefix("period end") || lowered.hasPrefix("game end") {
          type = .periodEnd
        }
        let player = row.side != nil && !name.isEmpty && !name.uppercased().hasPrefix("TEAM") ? name : nil
        if player != nil { details["action"] = rest }
        return Play(
          gameId: gameId, sequence: index + 1, period: row.period, periodLabel: row.periodLabel,
          clock: BasketballPlayRows.clock(row.clock), side: row.side, type: type, text: text, player: player,
          assist: assist, awayScore: type == .score ? row.away : nil, homeScore: type == .score ? row.home : nil,
          details: details)
      }
    }

    static func actor(_ text: String) -> (name: String, rest: String) {
      let parts = FastText.components(text, separatedBy: ", ")
      guard parts.count >= 2 else { return ("", text) }
      if parts.count >= 3, parts[1].first?.isUppercase == true, !parts[1].utf8.contains(0x20) {
        return (PersonName.normalized("\(parts[0]), \(parts[1])"), parts.dropFirst(2).joined(separator: ", "))
      }
      return (parts[0], parts.dropFirst().joined(separator: ", "))
    }
  }

  static let texts = [
    "JT Toppin, 2pt jumpshot made", "Ike, Graham, 2pt jumpshot made", "Ike, Graham, 3pt jumpshot 2ndchance MADE",
    "Smith, J., freethrow 1of2 made", "TEAM, rebound deadball", "Team, timeout full", "Kylan Boswell, turnover badpass",
    "period start", "Period Start", "JUMPBALL STARTPERIOD", "period end", "Game End", "", ", ", ",", "a, b", ", , ,",
    "Ryan Rapp makes three point jump shot (Isaiah Moses assists)", "Joel Armotrading makes two point layup",
    "Jo Doe makes free throw 1 of 2", "Jo Doe makes THREE POINT jump shot (Al Bo assists)", "x makes ",
    "Joel Armotrading vs. Tanner Christensen (Rainbow Warriors gains possesion)", "Media TIMEOUT", "made",
    "Émile Zoë, 3pt jumpshot made", "Ünal, Çağrı, layup made", "Lee, ann, layup made", "Lee, Ann Marie, dunk made",
    "  Padded, Name, 2pt made  ", "Zed, Al, Bo, Cy, 2pt made", "TURNOVER", "o'Neil, Shaq, block",
  ]

  @Test func everyTextIsReadAsTheLowerCasingReaderReadIt() throws {
    var rows: [PlayRow] = []
    for (index, text) in Self.texts.enumerated() {
      for side in [Side.away, .home, nil] as [Side?] {
        var row = PlayRow(period: 1 + index % 3, periodLabel: "1st Half", clock: "19:41:00", side: side, text: text)
        row.away = index
        row.home = index / 2
        row.listed = index % 4 == 0
        rows.append(row)
      }
    }
    let ours = BasketballPlayRows.plays(rows, gameId: "ncaa:1")
    let theirs = Reference.plays(rows, gameId: "ncaa:1")
    #expect(ours.count == theirs.count)
    for (a, b) in zip(ours, theirs) { #expect(a == b, "\(a.text.debugDescription)") }
    for text in Self.texts {
      #expect(BasketballPlayRows.actor(text) == Reference.actor(text), "\(text.debugDescription)")
    }
  }

  /// The same on every real and hand-written basketball play-by-play's texts.
  @Test func everyPagesTextsAreReadAsBefore() throws {
    var pages = [(try NCAAHandWrittenTests.page("ncaa-gql-pbp/basketball-live"), "ncaa-gql-pbp")]
    if RealPages.available {
      let real = try RealPages.page(
        "ncaa-stats/pbp-6479639-mbb-texastech-at-illinois.html",
        url: "https://stats.ncaa.org/contests/6479639/play_by_play")
      pages.append((real, "ncaa-stats-contest-pbp"))
    }
    for (page, parser) in pages {
      let batch = try PagePipeline.run(page, with: try NCAARun.entry(parser))
      let rows = batch.plays.map { play in
        var row = PlayRow(period: play.period ?? 1, clock: play.clock, side: play.side, text: play.text)
        row.away = play.awayScore
        row.home = play.homeScore
        return row
      }
      #expect(rows.count > 0)
      #expect(BasketballPlayRows.plays(rows, gameId: "g") == Reference.plays(rows, gameId: "g"))
    }
  }

  @Test func caselessTestsReadTheBytesInAnyCase() {
    #expect(FastText.hasSuffix("2pt jumpshot MADE", caseless: "made") && !FastText.hasSuffix("ade", caseless: "made"))
    #expect(FastText.hasPrefix("JumpBall StartPeriod", caseless: "jumpball startperiod"))
    #expect(!FastText.hasPrefix("", caseless: "a") && FastText.hasPrefix("", caseless: ""))
    #expect(
      FastText.contains("Media TIMEOUT", caseless: "timeout") && !FastText.contains("time out", caseless: "timeout"))
    #expect(FastText.contains("xTimeOutx", caseless: "timeout") && !FastText.contains("[", caseless: "{"))
  }

  /// A needle is found at its first offset, as comparing at every offset finds it: at the start,
  /// at the end, after near misses, and not at all (20,000 texts of ", ", " makes " and parts).
  @Test func aNeedleIsFoundAtItsFirstOffset() {
    let pieces = [",", " ", ", ", "makes", " makes ", " make", "a", "é", ""]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
        .joined()
      let bytes = Array(text.utf8)
      func naive(_ needle: String) -> Int? {
        let pin = Array(needle.utf8)
        guard bytes.count >= pin.count else { return nil }
        return (0...(bytes.count - pin.count)).first { Array(bytes[$0..<($0 + pin.count)]) == pin }
      }
      let (comma, makes) = bytes.withUnsafeBufferPointer { buffer in
        (BasketballPlayRows.Words.find(", ", in: buffer), BasketballPlayRows.Words.find(" makes ", in: buffer))
      }
      #expect(comma == naive(", ") && makes == naive(" makes "), "\(text)")
    }
  }
}
