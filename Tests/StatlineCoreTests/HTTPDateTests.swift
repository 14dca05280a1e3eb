import Foundation
import StatlineCore
import Testing

/// `HTTPDate`: the three forms RFC 9110 makes a recipient accept, and nothing else.
struct HTTPDateTests {
  /// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's own example.
  static let example = Date(timeIntervalSince1970: 784_111_777)

  @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
  func eachFormReadsTheSameMoment(text: String) {
    #expect(HTTPDate.parse(text) == Self.example)
  }

  @Test func datesAcrossTheCalendarAreRight() {
    #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    #expect(HTTPDate.parse("Thu, 29 Feb 2024 23:59:59 GMT") == Date(timeIntervalSince1970: 1_709_251_199))
    #expect(HTTPDate.parse("Mon, 16 Feb 2026 00:00:45 UTC") == Date(timeIntervalSince1970: 1_771_200_045))
    #expect(HTTPDate.parse("Friday, 31-Dec-99 23:59:59 GMT") == Date(timeIntervalSince1970: 946_684_799), "99: 1999")
  }

  @Test(arguments: [
    "", "soon", "120", "Sun, 30 Feb 2026 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:49:37 PST",
    "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Now 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
    "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37 GMT extra",
    "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov  6 08:49:37 94",
  ])
  func anythingElseIsNoDate(text: String) {
    #expect(HTTPDate.parse(text) == nil)
  }
}
