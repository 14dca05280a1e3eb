import Foundation
import StatlineCore
import Testing

@testable import NCAASource

/// Every way a GraphQL answer can be wrong reaches the parser as an error that names it.
@Suite struct GraphQLAnswerTests {
  struct Box: JSONReadable, Equatable {
    var goals: Int

    init(goals: Int) { self.goals = goals }
    init(json: borrowing JSONNode) throws(JSONShapeError) { goals = try json.required("goals") }
  }

  static func failure(_ json: String, status: Int = 200) -> StatlineError? {
    let page = Page(
      url: "https://sdataprod.ncaa.com/?meta=GetBox_web&extensions=%7B%7D", status: status, body: Data(json.utf8))
    do {
      _ = try GraphQLAnswer.decode(Box.self, field: "boxscore", from: page)
      return nil
    } catch {
      return error as? StatlineError
    }
  }

  @Test func aGoodAnswerDecodesTheField() throws {
    let page = Page(body: Data(#"{"data":{"boxscore":{"goals":12,"__typename":"Box"}}}"#.utf8))
    #expect(try GraphQLAnswer.decode(Box.self, field: "boxscore", from: page) == Box(goals: 12))
  }

  @Test func aBodyThatIsNotJSONIsUndecodable() throws {
    let error = try #require(Self.failure("<html>502 Bad Gateway</html>"))
    #expect(error.kind == .undecodable && error.reason.contains("not JSON"))
    #expect(try #require(Self.failure(#"{"data":{"boxscore":{"goals":1}"#)).kind == .undecodable)
  }

  @Test func errorsAreReportedWithTheirMessages() throws {
    let error = try #require(Self.failure(#"{"errors":[{"message":"Variable contestId is invalid"},{"x":1}]}"#))
    #expect(error.kind == .wrongPage && error.reason == "ncaa.com answered with errors: Variable contestId is invalid")
    let bare = try #require(Self.failure(#"{"errors":[{}],"data":null}"#))
    #expect(bare.reason == "ncaa.com answered with errors: (no message)")
    let stale = try #require(Self.failure(#"{"errors":[{"message":"PersistedQueryNotFound"}]}"#))
    #expect(stale.kind == .configuration && stale.reason.contains("GetBox_web"))
  }

  @Test func anEmptyErrorListIsNotAnError() throws {
    #expect(Self.failure(#"{"errors":[],"data":{"boxscore":{"goals":3}}}"#) == nil)
  }

  @Test func aMissingOrNullFieldNamesWhatDataHolds() throws {
    let missing = try #require(Self.failure(#"{"data":{"contests":[],"alpha":1}}"#))
    #expect(missing.reason == "the answer's data has no boxscore (it holds: alpha, contests)")
    let null = try #require(Self.failure(#"{"data":{"boxscore":null}}"#))
    #expect(null.reason == "the answer's data has no boxscore (it holds: boxscore)")
  }

  @Test func anAnswerWithoutADataObjectIsNotAGraphQLAnswer() throws {
    for json in [#"[1,2]"#, #"{"data":null}"#, #"{"data":[1]}"#, #"{}"#, #""text""#] {
      let error = try #require(Self.failure(json), "\(json)")
      #expect(error.reason == "the answer has no data object", "\(json)")
    }
  }

  @Test func onlyTypenameIsAnotherSportsHash() throws {
    let error = try #require(Self.failure(#"{"data":{"boxscore":{"__typename":"BasketballBoxscore"}}}"#))
    #expect(error.reason.contains("only __typename") && error.hint?.contains("GetBox_web") == true)
  }

  @Test func aWrongShapeNamesThePath() throws {
    let error = try #require(Self.failure(#"{"data":{"boxscore":{"goals":"many"}}}"#))
    #expect(error.kind == .wrongPage)
    #expect(
      error.reason
        == "data.boxscore does not have the expected shape: expected a whole number at .data.boxscore.goals, found a string"
    )
  }
}

/// The play-by-play's entries and plays, read in one pass over their members, against the
/// search per field they were read with before (kept here as the reference).
@Suite struct GraphQLPlayByPlayRecordTests {
  /// A record's fields in one line, each as `String(describing:)` writes it.
  static func line(_ fields: Any?...) -> String { fields.map { String(describing: $0) }.joined(separator: " ") }

  static func searchedEntry(_ json: JSONNode) throws(JSONShapeError) -> String {
    let clock: String? = try json.optional("clock")
    let teamId: Flexible? = try json.optional("teamId")
    let plays: [JSONNode]? = try json["plays"].flatMap { $0.isNull ? nil : $0 }.map { node throws(JSONShapeError) in
      guard node.kind == .array else { throw JSONShapeError(.typeMismatch(expected: "an array"), at: node) }
      return Array(node.elements)
    }
    let items = try plays?.map { node throws(JSONShapeError) in try searchedItem(node) }
    return line(
      clock, teamId?.text, items, try json.optional("visitorText", as: String.self),
      try json.optional("homeText", as: String.self), try json.optional("eventDescription", as: String.self),
      try json.optional("homeScore", as: Int.self), try json.optional("visitorScore", as: Int.self),
      try json.optional("score", as: String.self))
  }

  static func searchedItem(_ json: JSONNode) throws(JSONShapeError) -> String {
    line(
      try json.optional("playText", as: String.self), try json.optional("homeScore", as: Int.self),
      try json.optional("visitorScore", as: Int.self), try json.optional("clock", as: String.self))
  }

  static func onePassItem(_ json: JSONNode) throws(JSONShapeError) -> String {
    let item = try GraphQLPlayByPlay.Item(json: json)
    return line(item.playText, item.homeScore, item.visitorScore, item.clock)
  }

  static func onePassEntry(_ json: JSONNode) throws(JSONShapeError) -> String {
    let entry = try GraphQLPlayByPlay.Entry(json: json)
    let items = entry.plays?.map { line($0.playText, $0.homeScore, $0.visitorScore, $0.clock) }
    return line(
      entry.clock, entry.teamId?.text, items, entry.visitorText, entry.homeText, entry.eventDescription,
      entry.homeScore, entry.visitorScore, entry.score)
  }

  @Test func entriesAndPlaysReadAsTheSearchPerFieldReadThem() throws {
    let keys = [
      "clock", "teamId", "visitorText", "homeText", "eventDescription", "homeScore", "visitorScore", "score",
      "__typename", "plays", "playText", "cl\\u006fck",
    ]
    let values = [#""12:41""#, "3", "-2", "null", #""GOAL by COR Smith, Al""#, "true", "2.5", #""(1-2)""#, "[]"]
    var random = SystemRandomNumberGenerator()
    func same(
      _ text: String, _ searched: (JSONNode) throws(JSONShapeError) -> String,
      _ onePass: (JSONNode) throws(JSONShapeError) -> String
    ) throws {
      let node = try JSONDocument(bytes: Array(text.utf8)).root
      let a = Result { () throws(JSONShapeError) in try searched(node) }
      let b = Result { () throws(JSONShapeError) in try onePass(node) }
      switch (a, b) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
      // Two wrong fields: each reading names one of them (the search the first it asks for, the
      // one pass the first in the text), and both refuse the record.
      case (.failure, .failure): break
      default: Issue.record("\(text): searched \(a), one pass \(b)")
      }
    }
    func item() -> String {
      let members = (0..<Int.random(in: 0...5, using: &random)).map { _ in
        "\"\(["playText", "homeScore", "visitorScore", "clock", "__typename", "homeScore"].randomElement(using: &random)!)\":"
          + values.randomElement(using: &random)!
      }
      return "{" + members.joined(separator: ",") + "}"
    }
    for _ in 0..<2_000 {
      let members = (0..<Int.random(in: 0...8, using: &random)).map { _ in
        let key = keys.randomElement(using: &random)!
        let value =
          key == "plays" && Bool.random(using: &random)
          ? "[" + (0..<Int.random(in: 0...2, using: &random)).map { _ in item() }.joined(separator: ",") + "]"
          : values.randomElement(using: &random)!
        return "\"\(key)\":" + value
      }
      try same("{" + members.joined(separator: ",") + "}", Self.searchedEntry, Self.onePassEntry)
    }
    // Plays alone, so that each of their fields is read often.
    for _ in 0..<2_000 { try same(item(), Self.searchedItem, Self.onePassItem) }
  }
}
