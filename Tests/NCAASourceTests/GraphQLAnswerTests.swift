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
