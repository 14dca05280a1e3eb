import Foundation
import StatlineCore
import StatlineTesting
import Testing

/// Bad input through a whole config: always a typed error naming the source, the parser and
/// the page, never a crash and never an empty batch.
@Suite struct BadPageTests {
  static let url = "https://stats.ncaa.org/teams/614511"

  static func good() throws -> Data {
    try Data(contentsOf: PackageRoot.file("Fixtures/GenericHTML/ncaa-team-schedule/edge-cases/page.html"))
  }

  func failure(_ body: Data, status: Int = 200) -> StatlineError? {
    do {
      let batch = try runExample("ncaa-team-schedule", Page(url: Self.url, status: status, body: body))
      Issue.record("expected an error, got \(batch.games.count) games")
      return nil
    } catch let error as StatlineError {
      #expect(error.source == "generic-html")
      #expect(error.parser == "ncaa-team-schedule")
      #expect(error.location == Self.url)
      return error
    } catch {
      Issue.record("not a StatlineError: \(error)")
      return nil
    }
  }

  @Test func emptyBody() {
    #expect(failure(Data())?.kind == .emptyPage)
  }

  @Test func binaryGarbage() {
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
    #expect(failure(garbage) != nil)
  }

  @Test func truncatedPage() throws {
    let page = try Self.good()
    let error = failure(page.prefix(page.count * 6 / 10))
    #expect(error?.kind == .truncated)
  }

  @Test func invalidUTF8KeepsEveryRow() throws {
    var page = try Self.good()
    let marker = Data("St. Francis (IL)".utf8)
    let range = try #require(page.range(of: marker))
    page.replaceSubrange(range, with: Data("St. Fran".utf8) + Data([0xFF, 0xFE]) + Data("is (IL)".utf8))
    let batch = try runExample("ncaa-team-schedule", Page(url: Self.url, body: page))
    #expect(batch.games.count == 8)
  }

  @Test func aPageOfTheWrongKind() {
    let other = Data(
      "<html><body><h1>Men's Lacrosse Rankings</h1><table><tr><td>1</td></tr></table></body></html>".utf8)
    let error = failure(other)
    #expect(error?.kind == .wrongPage)
    #expect(error?.reason.contains("lacks 'Schedule/Results'") == true)
  }

  @Test func aLoginPage() {
    let login = Data("<html><body><form action=\"/login\"><input name=\"password\"></form></body></html>".utf8)
    #expect(failure(login)?.kind == .wrongPage)
  }

  @Test func aChallengeServedWith200IsBlocked() throws {
    let challenge = try Data(
      contentsOf: PackageRoot.file("Fixtures/GenericHTML/ncaa-team-schedule/bot-challenge/page.html"))
    #expect(failure(challenge)?.kind == .blocked)
  }

  @Test func anAccessDeniedWallIsBlocked() {
    let wall = Data("<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>Reference #18.6f</BODY></HTML>".utf8)
    #expect(failure(wall, status: 403)?.kind == .blocked)
  }

  @Test func aMalformedCellFailsTheRowLoudly() throws {
    let page = try String(decoding: Self.good(), as: UTF8.self)
      .replacingOccurrences(of: "<td>02/07/2026</td>", with: "<td>Feb 7th</td>")
    let error = failure(Data(page.utf8))
    #expect(error?.reason == "'Feb 7th' is not a date of the form MM/dd/yyyy")
    #expect(error?.context == "games row 1, field 'date' (games.fields.date)")
  }
}

/// A fuzzed calendar nested table#eventCalendar in its own cells; `//table//tr` then merged every
/// nested copy of the page (1.6 s for 69 KB). The config asks `/descendant::tr` instead: each
/// row once, in document order.
@Suite struct NestedCalendarTests {
  @Test func nestedCalendarTablesAreReadRowByRow() throws {
    let body = try Data(
      contentsOf: PackageRoot.file("Fuzz/Seeds/parser-statbroadcast-calendar/nested-calendars.html"))
    let batch = try runExample(
      "statbroadcast-calendar", Page(url: "https://www.statbroadcast.com/events/schedule.php?gid=msu", body: body))
    #expect(batch.games.count == 60)
    #expect(batch.games.prefix(2).map(\.id) == ["statbroadcast:640100", "statbroadcast:640200"])
    #expect(batch.games.last?.id == "statbroadcast:640229")
  }

  /// The rows above are the same with `X//tr`; only the time differs, which a test does not
  /// measure. So the shipped configs are held to the form: no `//tr` after a step.
  @Test func shippedConfigsAskDescendantRowsNotSlashSlash() throws {
    for name in ["statbroadcast-calendar", "ncaa-team-schedule"] {
      let yaml = try String(
        contentsOf: PackageRoot.file("Plugins/GenericHTML/Examples/\(name).yml"), encoding: .utf8)
      #expect(yaml.contains("/descendant::tr["), "\(name)")
      #expect(yaml.range(of: #"[^\s'"]//tr"#, options: .regularExpression) == nil, "\(name) asks X//tr")
    }
  }
}
