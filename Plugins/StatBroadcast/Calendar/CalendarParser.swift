import Foundation
import StatlineCore
import StatlineHTML

/// One row of a school's event calendar, as the page shows it.
struct CalendarRow: Sendable, Equatable {
  var eventId: String
  var date: String
  var event: String
  var sportCode: String
  var location: String
}

/// The calendar's event rows, and how many event rows had no `statb.us` link to identify them.
struct CalendarPage: Sendable, Equatable {
  var rows: [CalendarRow]
  var unlinked: Int
}

/// Reads `table#eventCalendar` on `www.statbroadcast.com/events/schedule.php?gid=…`: the browser
/// DOM after DataTables ran, and the server HTML that carries the same rows. A table whose rows
/// are loaded by script, or a page without the table, is an error, never an empty calendar.
struct CalendarParser: PageParser {
  static let idPattern = try! NSRegularExpression(pattern: #"statb\.us/(?:b|v/[^/"]+)/(\d+)"#)

  func parse(_ page: Page) throws -> CalendarPage {
    var reader = CalendarReader()
    try HTMLStream.read(page.body, into: &reader, url: page.url)
    guard !reader.tables.isEmpty else {
      throw StatlineError(
        .wrongPage, "the page has no event calendar (table#eventCalendar)",
        hint: "check the gid in the URL; the calendar layout may have changed")
    }
    let columns = try CalendarColumns.read(reader.tables)
    let rows = reader.rows
    var result: [CalendarRow] = []
    var unlinked = 0
    for row in rows {
      let cells = row.children(named: "td")
      // DataTables' "no data" row has a single cell.
      guard cells.count > columns.last else { continue }
      let links = row.descendants(named: "a").compactMap { $0.attribute("href") }
      guard let id = links.lazy.compactMap(Self.eventId).first else {
        unlinked += 1
        continue
      }
      result.append(
        CalendarRow(
          eventId: id, date: cells[columns.date].text, event: cells[columns.event].text,
          sportCode: cells[columns.sport].text,
          location: columns.location.flatMap { $0 < cells.count ? cells[$0].text : nil } ?? ""))
    }
    guard !result.isEmpty else {
      throw StatlineError(
        .wrongPage, "the event calendar has no event rows with statb.us links (\(rows.count) rows)",
        hint: "the rows may be loaded by script (POST /events/_calendar.php); Statline does not run scripts")
    }
    return CalendarPage(rows: result, unlinked: unlinked)
  }

  static func eventId(_ href: String) -> String? {
    let range = NSRange(href.startIndex..., in: href)
    guard let match = idPattern.firstMatch(in: href, range: range), let id = Range(match.range(at: 1), in: href)
    else { return nil }
    return String(href[id])
  }
}
