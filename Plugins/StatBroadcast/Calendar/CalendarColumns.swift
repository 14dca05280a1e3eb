import StatlineCore
import StatlineHTML

/// The event calendar's columns, from its header row's text (architecture.md#failure: tables by their
/// header): `Date`, `Event` and `Sport` are needed, `Location` is read when printed. The real
/// page has one more, unheaded column (the broadcast links), which is not read.
struct CalendarColumns: Sendable, Equatable {
  var date: Int
  var event: Int
  var sport: Int
  var location: Int?

  /// The highest column index an event row must reach.
  var last: Int { max(date, event, sport) }

  /// The columns the first header row of `tables` names; a calendar without `Date`, `Event` and
  /// `Sport` headers is a clear error naming the headers it has.
  static func read(_ tables: [FragmentNode]) throws(StatlineError) -> CalendarColumns {
    let headers =
      tables.lazy.flatMap { $0.descendants(named: "tr") }.map { $0.children(named: "th").map(\.text) }
      .first { !$0.isEmpty } ?? []
    let lowered = headers.map { $0.lowercased() }
    guard let date = lowered.firstIndex(of: "date"), let event = lowered.firstIndex(of: "event"),
      let sport = lowered.firstIndex(of: "sport")
    else {
      let found = headers.isEmpty ? "no header row" : "headers " + headers.map { "'\($0)'" }.joined(separator: ", ")
      throw StatlineError(
        .wrongPage, "the event calendar has no Date, Event and Sport columns (\(found))",
        hint: "the calendar layout changed: its header row is no longer what the parser reads")
    }
    return CalendarColumns(date: date, event: event, sport: sport, location: lowered.firstIndex(of: "location"))
  }
}
