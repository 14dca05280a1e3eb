import Foundation
import PostgresNIO
import StatlineCore

extension PostgresStore: CaptureLog {
  public func capture(_ page: Page, error: StatlineError, at time: Date) async throws -> Int64 {
    let headers = String(decoding: (try? JSONEncoder.sorted.encode(page.headers)) ?? Data("{}".utf8), as: UTF8.self)
    let body = ByteBuffer(bytes: page.body)
    return try await perform("cannot keep the capture of \(page.url ?? "a page")") { connection in
      try await connection.query(
        """
        INSERT INTO captures (captured_at, url, status, headers, fetched_at, file, source, parser, error, body)
        VALUES (\(time.timeIntervalSince1970), \(page.url), \(page.status), \(headers),
          \(page.fetchedAt?.timeIntervalSince1970), \(page.file), \(error.source), \(error.parser),
          \(error.description), \(body))
        RETURNING id
        """, logger: logger
      ).collect().first?.decode(Int64.self) ?? 0
    }
  }

  public func captures(limit: Int) async throws -> [CaptureSummary] {
    try await perform("cannot list captures") { connection in
      var result: [CaptureSummary] = []
      for try await row in try await connection.query(
        "SELECT id, captured_at, url, status, source, parser, error FROM captures ORDER BY id DESC LIMIT \(limit)",
        logger: logger)
      {
        result.append(try Self.summary(row))
      }
      return result
    }
  }

  public func capture(id: Int64) async throws -> Capture? {
    try await perform("cannot read capture \(id)") { connection in
      guard
        let row = try await connection.query(
          """
          SELECT id, captured_at, url, status, source, parser, error, headers, fetched_at, file, body
          FROM captures WHERE id = \(id)
          """, logger: logger
        ).collect().first
      else { return nil }
      let summary = try Self.summary(row)
      let columns = row.makeRandomAccess()
      let headers =
        (try? JSONDecoder().decode([String: String].self, from: Data(try columns[7].decode(String.self).utf8))) ?? [:]
      let page = Page(
        url: summary.url, status: summary.status, headers: headers,
        body: Data(buffer: try columns[10].decode(ByteBuffer.self)),
        fetchedAt: try columns[8].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
        file: try columns[9].decode(String?.self))
      return Capture(summary: summary, page: page)
    }
  }

  public func pruneCaptures(keep: Int, olderThan: Date, maxBytes: Int64) async throws -> Int {
    try await perform("cannot prune captures") { connection in
      try await connection.query(
        """
        WITH gone AS (
          DELETE FROM captures
          WHERE captured_at < \(olderThan.timeIntervalSince1970)
            OR id NOT IN (SELECT id FROM captures ORDER BY id DESC LIMIT \(keep))
            OR id IN (
              SELECT id FROM (SELECT id, SUM(octet_length(body)) OVER (ORDER BY id DESC) AS newer FROM captures) n
              WHERE newer > \(maxBytes))
          RETURNING 1)
        SELECT count(*)::int8 FROM gone
        """, logger: logger
      ).collect().first.map { Int(try $0.decode(Int64.self)) } ?? 0
    }
  }

  /// A summary from the first seven columns: id, captured_at, url, status, source, parser, error.
  static func summary(_ row: PostgresRow) throws -> CaptureSummary {
    let columns = row.makeRandomAccess()
    return CaptureSummary(
      id: try columns[0].decode(Int64.self),
      capturedAt: Date(timeIntervalSince1970: try columns[1].decode(Double.self)),
      url: try columns[2].decode(String?.self), status: try columns[3].decode(Int.self),
      source: try columns[4].decode(String?.self), parser: try columns[5].decode(String?.self),
      error: try columns[6].decode(String.self))
  }
}
