import StatlineCore
import StatlineHTML

/// A team schedule's columns, from its header row's text (architecture.md#failure: tables by their header),
/// in both layouts: `Date`, `Opponent` and `Result` are needed, `Attendance` is read when
/// printed; any other header is left out and named in the warnings.
struct ScheduleColumns: Sendable, Equatable {
  var date: Int
  var opponent: Int
  var result: Int
  var attendance: Int?
  /// Headers the parser does not read, as printed.
  var unknown: [String] = []

  /// The highest column index a game row must reach.
  var last: Int { max(date, opponent, result) }

  /// The columns the header row names; a header row without `Date`, `Opponent` and `Result` is a
  /// clear error naming the headers it has.
  static func read(_ headers: [String], table: String) throws(StatlineError) -> ScheduleColumns {
    let lowered = headers.map { $0.lowercased() }
    guard let date = lowered.firstIndex(of: "date"), let opponent = lowered.firstIndex(of: "opponent"),
      let result = lowered.firstIndex(of: "result")
    else {
      let found = headers.isEmpty ? "no header row" : "headers " + headers.map { "'\($0)'" }.joined(separator: ", ")
      throw StatlineError(
        .wrongPage, "the \(table) table has no Date, Opponent and Result columns (\(found))",
        hint: "the layout changed: the schedule's header row is no longer what the parser reads")
    }
    let attendance = lowered.firstIndex(of: "attendance")
    let known = [date, opponent, result] + (attendance.map { [$0] } ?? [])
    let unknown = headers.indices.filter { !known.contains($0) && !headers[$0].isEmpty }.map { headers[$0] }
    return ScheduleColumns(date: date, opponent: opponent, result: result, attendance: attendance, unknown: unknown)
  }

  /// The first row whose cells are `th` headers, as text; empty when none is.
  static func headers<Element: ElementNode>(in rows: [Element]) -> [String] {
    rows.lazy.map { $0.children(named: "th").map(\.text) }.first { !$0.isEmpty } ?? []
  }

  /// The warning naming the headers left out, or nil.
  var unknownWarning: String? {
    unknown.isEmpty
      ? nil : "schedule columns not read: " + unknown.map { "'\($0)'" }.joined(separator: ", ")
  }
}
