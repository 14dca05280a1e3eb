import Foundation
import StatlineCore

extension SQLiteStore: CaptureLog {
  public func capture(_ page: Page, error: StatlineError, at time: Date) throws -> Int64 {
    let headers = String(decoding: (try? JSONEncoder.sorted.encode(page.headers)) ?? Data("{}".utf8), as: UTF8.self)
    try connection.statement(
      """
      INSERT INTO captures (captured_at, url, status, headers, fetched_at, file, source, parser, error, body)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """
    ).bind(
      time.timeIntervalSince1970, page.url, page.status, headers, page.fetchedAt?.timeIntervalSince1970, page.file,
      error.source, error.parser, error.description, page.body
    ).run()
    return try connection.integer("SELECT last_insert_rowid()")
  }

  public func captures(limit: Int) throws -> [CaptureSummary] {
    let statement = try connection.statement(
      "SELECT id, captured_at, url, status, source, parser, error FROM captures ORDER BY id DESC LIMIT ?"
    ).bind(limit)
    var result: [CaptureSummary] = []
    while try statement.step() { result.append(summary(statement, offset: 0)) }
    return result
  }

  public func capture(id: Int64) throws -> Capture? {
    let statement = try connection.statement(
      """
      SELECT id, captured_at, url, status, source, parser, error, headers, fetched_at, file, body
      FROM captures WHERE id = ?
      """
    ).bind(id)
    guard try statement.step() else { return nil }
    let summary = summary(statement, offset: 0)
    let headers =
      (try? JSONDecoder().decode([String: String].self, from: Data(statement.text(7).utf8))) ?? [:]
    let page = Page(
      url: summary.url, status: summary.status, headers: headers, body: statement.data(10),
      fetchedAt: statement.isNull(8) ? nil : Date(timeIntervalSince1970: statement.double(8)),
      file: statement.isNull(9) ? nil : statement.text(9))
    return Capture(summary: summary, page: page)
  }

  public func pruneCaptures(keep: Int, olderThan: Date, maxBytes: Int64) throws -> Int {
    let removed = try connection.transaction { () throws(StatlineError) -> Int in
      try connection.statement(
        """
        DELETE FROM captures WHERE captured_at < ? OR id NOT IN (SELECT id FROM captures ORDER BY id DESC LIMIT ?)
          OR id IN (
            SELECT id FROM (SELECT id, SUM(length(body)) OVER (ORDER BY id DESC) AS newer FROM captures)
            WHERE newer > ?)
        """
      ).bind(olderThan.timeIntervalSince1970, keep, maxBytes).run()
      return Int(try connection.integer("SELECT changes()"))
    }
    // The pages' space back to the filesystem (a store made with incremental auto-vacuum; for
    // an older one this does nothing: `VACUUM` it once, as docs/running.md says).
    if removed > 0 { try connection.execute("PRAGMA incremental_vacuum") }
    return removed
  }

  private func summary(_ statement: Statement, offset: Int32) -> CaptureSummary {
    CaptureSummary(
      id: statement.int64(0), capturedAt: Date(timeIntervalSince1970: statement.double(1)),
      url: statement.isNull(2) ? nil : statement.text(2), status: Int(statement.int64(3)),
      source: statement.isNull(4) ? nil : statement.text(4), parser: statement.isNull(5) ? nil : statement.text(5),
      error: statement.text(6))
  }
}
