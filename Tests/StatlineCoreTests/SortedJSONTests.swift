import Foundation
import StatlineTesting
import Testing

@testable import StatlineCore

/// `SortedJSON` must write exactly what `JSONEncoder` writes with sorted keys: the stores hash
/// these bytes, so one differing byte would make every stored record look changed.
@Suite struct SortedJSONTests {
  static func foundation<Value: Encodable>(_ value: Value, escapesSlashes: Bool) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = escapesSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func expectSame<Value: Encodable>(
    _ value: Value, _ comment: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for escapesSlashes in [false, true] {
      let ours = String(decoding: try SortedJSON(escapesSlashes: escapesSlashes).encode(value), as: UTF8.self)
      #expect(
        ours == (try foundation(value, escapesSlashes: escapesSlashes)), "\(comment())",
        sourceLocation: sourceLocation)
    }
  }

  /// Every record of every golden batch in `Fixtures/` (every parser of every plugin, real pages
  /// and hand-written ones).
  @Test func everyRecordOfEveryGoldenBatchIsWrittenAsFoundationWritesIt() throws {
    let root = PackageRoot.file("Fixtures")
    let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
      .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "normalized.golden.json" }
    #expect(files.count >= 20)
    var records = 0
    for file in files {
      let batch = try JSONDecoder().decode(Batch.self, from: Data(contentsOf: file))
      try Self.expectSame(batch, file.path)
      for (kind, id, record) in StoreRecord.records(of: batch) {
        let row = try RecordRow(kind: kind, id: id, record: record)
        let expected: String
        switch record {
        case .game(let value): expected = try Self.foundation(value, escapesSlashes: false)
        case .team(let value): expected = try Self.foundation(value, escapesSlashes: false)
        case .boxScore(let value): expected = try Self.foundation(value, escapesSlashes: false)
        case .play(let value): expected = try Self.foundation(value, escapesSlashes: false)
        case .ranking(let value): expected = try Self.foundation(value, escapesSlashes: false)
        }
        #expect(row.json == expected, "\(file.path) \(kind) \(id)")
        records += 1
      }
    }
    #expect(records > 1_000)
  }

  @Test func aTargetStateIsWrittenAsFoundationWritesIt() throws {
    var state = TargetState(
      target: Target(url: "https://x.test/a/b?c=1", source: "s", parser: "p", role: .game),
      nextDue: Date(timeIntervalSince1970: 1.5e9),
      discoveredBy: "https://x.test/list", gameId: "s:1")
    state.lastPolled = Date(timeIntervalSinceReferenceDate: 785_000_000.123_456)
    state.lastSucceeded = Date(timeIntervalSinceReferenceDate: -12.5)
    state.cadence = 30
    state.lastError = "HTTP 500: \"oops\"\n\tat /x\\y"
    state.remembered = ["filetime": "123", "Ä": "ü", "a": "/"]
    state.deltaPolls = 3
    try Self.expectSame(state)
    #expect(try state.storedJSON() == (try Self.foundation(state.bare, escapesSlashes: true)))
  }

  /// Strings of every kind of character: the escapes, the C0 controls, DEL, slashes, non-ASCII,
  /// the line separators, astral scalars.
  @Test func stringsOfEveryKindAreEscapedAsFoundationEscapesThem() throws {
    let alphabet: [Unicode.Scalar] =
      (0..<0x80).compactMap(Unicode.Scalar.init) + [
        "\u{80}", "\u{A0}", "é", "\u{2028}", "\u{2029}", "\u{FEFF}", "€", "😀", "\u{10FFFF}",
      ]
    var random = SystemRandomNumberGenerator()
    for length in 0..<200 {
      var text = String.UnicodeScalarView()
      for _ in 0..<(length % 40) { text.append(alphabet.randomElement(using: &random)!) }
      try Self.expectSame([String(text): String(text)], String(text).debugDescription)
      try Self.expectSame([String(text)])
    }
    for scalar in alphabet { try Self.expectSame(["k": String(scalar)], scalar.escaped(asASCII: true)) }
  }

  @Test func numbersAreWrittenAsFoundationWritesThem() throws {
    var random = SystemRandomNumberGenerator()
    var doubles: [Double] = [
      0, -0.0, 1, -1, 0.1, 1e-7, 1e-5, 123_456_789.25, 1e15, 1e16, 1e17, 1e21, 1e22, .leastNonzeroMagnitude, .pi,
    ]
    doubles += [Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double(Int64.max), 785_000_000.5]
    for _ in 0..<2_000 {
      doubles.append(Double(bitPattern: random.next()))
      doubles.append(Double.random(in: -1e6...1e10, using: &random))
      doubles.append(Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 8)
    }
    for value in doubles where value.isFinite { try Self.expectSame(["d": value], "\(value)") }
    let integers: [Int] = [0, 1, -1, .max, .min] + (0..<100).map { _ in Int.random(in: .min ... .max, using: &random) }
    try Self.expectSame(integers)
    try Self.expectSame([UInt64.max, 0], "UInt64")
    try Self.expectSame(["i8": Int8.min], "Int8")
    try Self.expectSame([true, false], "Bool")
  }

  struct Shapes: Encodable {
    var empty: [String: Int] = [:]
    var emptyArray: [Int] = []
    var byInt: [Int: String] = [10: "ten", 2: "two", -1: "minus"]
    var keys: [String: Int] = [
      "b": 1, "a": 2, "B": 3, "é": 4, "e": 5, "aa": 6, "": 7, "a\u{0}": 8, "😀": 9, "\u{FFFF}": 10,
    ]
    var nested: [[String: [Int?]]] = [["x": [1, nil, 3]], [:]]
    var optional: String? = nil
    var present: String? = "yes"
    var url = "https://x.test/a/b"
    var date = Date(timeIntervalSinceReferenceDate: 12_345.678)
  }

  struct Handwritten: Encodable {
    enum Key: String, CodingKey { case z, a, inner, list, again, sup }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: .z)
      try container.encodeNil(forKey: .a)
      var inner = container.nestedContainer(keyedBy: Key.self, forKey: .inner)
      try inner.encode("x", forKey: .list)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      try list.encode(2)
      try list.encodeNil()
      var deeper = list.nestedContainer(keyedBy: Key.self)
      try deeper.encode(true, forKey: .a)
      try "from a super encoder".encode(to: container.superEncoder())
      try 7.encode(to: container.superEncoder(forKey: .sup))
      var more = list.superEncoder().unkeyedContainer()
      try more.encode("in a super encoder of a list")
      try container.encode("first", forKey: .again)
      try container.encode("last", forKey: .again)
      try container.encode(3.5, forKey: .z)
    }
  }

  @Test func containersKeysAndNullsAreWrittenAsFoundationWritesThem() throws {
    try Self.expectSame(Shapes())
    try Self.expectSame(Handwritten())
    try Self.expectSame(Optional<Int>.none, "a nil at the top")
    try Self.expectSame("top", "a string at the top")
    try Self.expectSame([Shapes(), Shapes()])
  }

  /// Games, their team lines, refs and conflicts write themselves (`SortedJSONWritable`):
  /// random values with every optional field present or not, canonical fields and all, strings
  /// that need escaping.
  @Test func gamesThatWriteThemselvesAreWrittenAsFoundationWritesThem() throws {
    var random = SystemRandomNumberGenerator()
    let texts = ["", "a/b", "Army West Point", "Texas A&M", "\"quoted\"\n", "é😀", "back\\slash", "\u{1}"]
    func text() -> String { texts.randomElement(using: &random)! }
    func maybe<Value>(_ value: @autoclosure () -> Value) -> Value? { Bool.random(using: &random) ? value() : nil }
    func number() -> Int {
      Bool.random(using: &random)
        ? [Int.min, Int.max, 0, -1, 9, 10, -10, 99, 100].randomElement(using: &random)!
        : Int.random(in: .min ... .max, using: &random) >> Int.random(in: 0...63, using: &random)
    }
    func line() -> TeamLine {
      var line = TeamLine(
        team: TeamRef(id: maybe(text()), name: text(), abbreviation: maybe(text())), score: maybe(number()),
        periodScores: (0..<Int.random(in: 0...5, using: &random)).map { _ in number() }, record: maybe(text()),
        rank: maybe(number()), winner: maybe(Bool.random(using: &random)))
      line.rankSource = maybe(text())
      return line
    }
    for _ in 0..<2_000 {
      var game = Game(
        id: text(), sport: Sport(text()), status: GameStatus.allCases.randomElement(using: &random)!,
        period: maybe(number()), periodLabel: maybe(text()), clock: maybe(text()), date: maybe(text()),
        startTime: maybe(text()), venue: maybe(text()), attendance: maybe(number()),
        neutralSite: maybe(Bool.random(using: &random)), away: line(), home: line())
      game.sources = maybe([text(), text()])
      game.reversedSources = maybe([text()])
      game.liveSource = maybe(text())
      game.conflict = maybe(GameConflict(kept: text(), keptScore: text(), other: text(), otherScore: text()))
      game.canonicalId = maybe(text())
      game.retiredInto = maybe(text())
      try Self.expectSame(game, "\(game)")
      // Inside another value's Codable (a target's state keeps its games).
      try Self.expectSame(["games": [game]], "\(game)")
    }
  }

  /// The types that write themselves have exactly the stored properties their writers know: a
  /// field added to one of them must be written by its `write(to:)` too (and this list grown).
  @Test func typesThatWriteThemselvesHaveTheFieldsTheirWritersWrite() {
    let ref = TeamRef(name: "x")
    let line = TeamLine(team: ref)
    func fields(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
    #expect(
      fields(Game(id: "g", sport: .unknown, status: .live, away: line, home: line)) == [
        "id", "sport", "status", "_period", "_periodLabel", "_clock", "_date", "_startTime", "_venue",
        "_attendance", "_neutralSite", "away", "home", "gameNumber", "sources", "reversedSources", "liveSource",
        "conflict",
        "canonicalId", "retiredInto",
      ])
    #expect(fields(line) == ["team", "_score", "periodScores", "_record", "_rank", "_rankSource", "_winner"])
    #expect(fields(ref) == ["_id", "name", "_abbreviation"])
    // And they do write themselves (a conformance dropped would leave every test above passing).
    let game = Game(id: "g", sport: .unknown, status: .live, away: line, home: line)
    #expect(
      [game as Any, line, ref, GameConflict(kept: "", keptScore: "", other: "", otherScore: "")].allSatisfy {
        $0 is any SortedJSONWritable
      })
    #expect(
      fields(GameConflict(kept: "", keptScore: "", other: "", otherScore: "")) == [
        "kept", "keptScore", "other", "otherScore",
      ])
  }

  @Test func valuesFoundationWritesItsOwnWayAreHandedToIt() throws {
    try Self.expectSame(["data": Data([0, 1, 2, 255])], "Data")
    try Self.expectSame(["url": URL(string: "https://x.test/a b")!], "URL")
    try Self.expectSame(["float": Float(0.1)], "Float")
    try Self.expectSame(["decimal": Decimal(string: "12.50")!], "Decimal")
    #expect(throws: (any Error).self) { try SortedJSON(escapesSlashes: false).encode(["nan": Double.nan]) }
  }
}

extension TargetState {
  /// The state as `storedJSON` writes it.
  fileprivate var bare: TargetState {
    var bare = self
    (bare.etag, bare.lastModified, bare.bodyHash) = (nil, nil, nil)
    return bare
  }
}
