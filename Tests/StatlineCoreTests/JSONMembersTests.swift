import StatlineCore
import Testing

/// `forEachMember`, the one-pass reading of a record, against the search per field
/// (`optional`) it stands in for.
@Suite struct JSONMembersTests {
  static func reads(_ text: String) throws -> JSONNode { try JSONDocument(bytes: Array(text.utf8)).root }

  /// A record of three fields read both ways: the one-pass reading keeps the first of a
  /// repeated key, as `optional` finds it.
  struct Record: Equatable, CustomStringConvertible {
    var name: String?
    var score: Int?
    var id: JSONScalar?

    var description: String { "name \(name ?? "nil") score \(score.map(String.init) ?? "nil") id \(id?.text ?? "nil")" }

    static func searched(_ json: JSONNode) throws(JSONShapeError) -> Record {
      Record(name: try json.optional("name"), score: try json.optional("score"), id: try json.optional("id"))
    }

    static func onePass(_ json: JSONNode) throws(JSONShapeError) -> Record {
      var record = Record()
      var seen = (name: false, score: false, id: false)
      try json.forEachMember { key, value throws(JSONShapeError) in
        if key.is("name") {
          guard !seen.name else { return }
          seen.name = true
          record.name = try value.optionalValue()
        } else if key.is("score") {
          guard !seen.score else { return }
          seen.score = true
          record.score = try value.optionalValue()
        } else if key.is("id") {
          guard !seen.id else { return }
          seen.id = true
          record.id = try value.optionalValue()
        }
      }
      return record
    }
  }

  /// Both readings of `text`: the same record, or both refused. Where two fields are wrong, the
  /// search names the first it asks for and the one pass the first in the text: its error must
  /// be one that reading its field alone throws.
  static func same(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let node = try reads(text)
    let searched = Result { () throws(JSONShapeError) in try Record.searched(node) }
    let onePass = Result { () throws(JSONShapeError) in try Record.onePass(node) }
    switch (searched, onePass) {
    case (.success(let a), .success(let b)): #expect(a == b, "\(text)", sourceLocation: sourceLocation)
    case (.failure, .failure(let b)):
      let alone: [String] = [
        Result { () throws(JSONShapeError) in _ = try node.optional("name", as: String.self) },
        Result { () throws(JSONShapeError) in _ = try node.optional("score", as: Int.self) },
        Result { () throws(JSONShapeError) in _ = try node.optional("id", as: JSONScalar.self) },
      ].compactMap { result in
        guard case .failure(let error) = result else { return nil }
        return error.description
      }
      #expect(alone.contains(b.description), "\(text): \(b) among \(alone)", sourceLocation: sourceLocation)
    default: Issue.record("\(text): searched \(searched), one pass \(onePass)", sourceLocation: sourceLocation)
    }
  }

  @Test func membersComeInOrderWithTheirKeysDecoded() throws {
    let node = try Self.reads(#"{"a":1,"n\u0061me":"x","":null,"b":[1,2],"a":{"c":true}}"#)
    var seen: [(String, JSONKind)] = []
    try node.forEachMember { key, value in
      seen.append((String(decoding: key.bytes, as: UTF8.self), value.kind))
    }
    #expect(seen.map(\.0) == ["a", "name", "", "b", "a"])
    #expect(seen.map(\.1) == [.number, .string, .null, .array, .object])
  }

  @Test func aKeyIsComparedByEveryByte() throws {
    let node = try Self.reads(#"{"score":1,"scorf":2,"scor":3,"scores":4,"s":5,"t":6}"#)
    var matched: [String] = []
    try node.forEachMember { key, _ in
      for literal: StaticString in ["score", "s", "scores"] where key.is(literal) { matched.append("\(literal)") }
    }
    #expect(matched == ["score", "scores", "s"])
  }

  @Test func whatIsNotAnObjectIsAShapeErrorNamingItsPath() throws {
    let root = try Self.reads(#"{"teams":[{"name":"A"},[1]]}"#)
    let second = try #require(root["teams"].map { Array($0.elements) }?.last)
    #expect(throws: JSONShapeError.self) { try second.forEachMember { _, _ in } }
    do throws(JSONShapeError) {
      try second.forEachMember { _, _ in }
    } catch {
      #expect(error.description == "expected an object at .teams[1], found an array")
    }
  }

  @Test func aValueOfTheWrongShapeNamesItsPath() throws {
    let root = try Self.reads(#"{"rows":[{"score":"2"}]}"#)
    let row = try #require(root["rows"].map { Array($0.elements) }?.first)
    do throws(JSONShapeError) {
      _ = try Record.onePass(row)
      Issue.record("read a string as a whole number")
    } catch {
      #expect(error.description == "expected a whole number at .rows[0].score, found a string")
    }
  }

  @Test func handWrittenRecordsReadAsTheSearchReadsThem() throws {
    for text in [
      #"{}"#, #"{"name":"A","score":2,"id":7}"#, #"{"id":"7","score":null,"name":null}"#,
      #"{"score":1,"score":2}"#, #"{"score":null,"score":2}"#, #"{"score":"x","score":2}"#,
      #"{"score":2,"score":"x"}"#, #"{"sc\u006fre":3,"score":4}"#, #"{"name":"caf\u00e9"}"#,
      #"{"name":1}"#, #"{"id":true}"#, #"{"id":[1]}"#, #"{"other":{"name":"B"},"name":"A"}"#,
      #"{"score":1.0}"#, #"{"score":123456789012345678901}"#,
    ] {
      try Self.same(text)
    }
  }

  /// Random records: keys repeated, missing, null, escaped or of the wrong kind, in any order.
  @Test func randomRecordsReadAsTheSearchReadsThem() throws {
    // Each failing record is named in its expectation.
    var random = SystemRandomNumberGenerator()
    let keys = [#""name""#, #""score""#, #""id""#, #""n\u0061me""#, #""other""#, #""scor""#, #""""#]
    let values = [#""A""#, #""7""#, "3", "-1", "2.5", "null", "true", "[]", #"{"score":1}"#, #""caf\u00e9""#]
    for _ in 0..<2_000 {
      let members = (0..<Int.random(in: 0...6, using: &random)).map { _ in
        keys.randomElement(using: &random)! + ":" + values.randomElement(using: &random)!
      }
      try Self.same("{" + members.joined(separator: ",") + "}")
    }
  }
}
