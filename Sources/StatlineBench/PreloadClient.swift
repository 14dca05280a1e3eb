import AsyncHTTPClient
import CompressNIO
import Foundation
import NIOCore
import StatlineCore

/// Phones preloading a day's box scores from the read API, as many at once as `clients`, each
/// preload after the last until the time is up: either one `GET /v1/boxscores?date=` or the
/// box score of each of the day's live and final games, six requests at a time (a browser's
/// connections to one host). Every answer must be a 200, gzipped as asked; a batch must hold
/// every game. Run in a child process of `bench preload`, so the server's CPU is counted alone.
struct PreloadClient: Sendable {
  enum Mode: String, Sendable, CaseIterable {
    /// One request per game.
    case single
    /// One request for the day.
    case batch
  }

  var base: String
  var date: String
  var mode: Mode
  var clients: Int
  var warmUp: Duration
  var duration: Duration

  /// What the child writes as the measured part begins.
  static let measuringLine = "measuring"

  /// Requests a phone has in flight at once, one game after another.
  static let connectionsPerPhone = 6

  struct Report: Codable, Sendable {
    var preloads: Int
    /// Seconds from a preload's first request to its last box score, sorted.
    var seconds: [Double]
    /// Response bytes on the wire per preload: bodies as sent (gzipped) and response heads.
    var bytesPerPreload: Double
    var requestsPerPreload: Int
    var games: Int
  }

  /// Runs the warm-up, calls `measuring` as the measured part begins, and returns its report.
  func run(measuring: @Sendable () -> Void) async throws -> Report {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
      clients * (mode == .single ? Self.connectionsPerPhone : 1)
    configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
      let ids = try await gameIds(client)
      let paths =
        mode == .batch
        ? ["/v1/boxscores?date=\(date)"]
        : ids.map { "/v1/games/\($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0)/boxscore" }
      _ = try await phones(client, paths: paths, games: ids.count, for: warmUp)
      measuring()
      let measured = try await phones(client, paths: paths, games: ids.count, for: duration)
      try await client.shutdown()
      return Report(
        preloads: measured.seconds.count, seconds: measured.seconds.sorted(),
        bytesPerPreload: Double(measured.bytes) / Double(max(1, measured.seconds.count)),
        requestsPerPreload: paths.count, games: ids.count)
    } catch {
      try? await client.shutdown()
      throw error
    }
  }

  /// The day's live and final games, from the scoreboard.
  func gameIds(_ client: HTTPClient) async throws -> [String] {
    let (status, _, body) = try await get(client, "/v1/scoreboard?date=\(date)", gzip: false)
    struct Board: Decodable {
      struct Entry: Decodable {
        var id: String
        var status: String
      }
      var games: [Entry]
    }
    guard status == 200, let board = try? JSONDecoder().decode(Board.self, from: Data(body)) else {
      throw StatlineError(.io, "the scoreboard of \(date) answered \(status)")
    }
    let ids = board.games.filter { $0.status == "live" || $0.status == "final" }.map(\.id)
    guard !ids.isEmpty else { throw StatlineError(.io, "the scoreboard of \(date) holds no live or final game") }
    return ids
  }

  /// Every phone preloading again and again for `duration`: each preload's time and the bytes.
  func phones(_ client: HTTPClient, paths: [String], games: Int, for duration: Duration) async throws -> (
    seconds: [Double], bytes: Int
  ) {
    let end = ContinuousClock.now + duration
    return try await withThrowingTaskGroup(of: (seconds: [Double], bytes: Int).self) { group in
      for _ in 0..<clients {
        group.addTask {
          var seconds: [Double] = []
          var bytes = 0
          while ContinuousClock.now < end {
            let start = ContinuousClock.now
            bytes += try await preload(client, paths: paths, games: games, check: seconds.isEmpty)
            let took = ContinuousClock.now - start
            seconds.append(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
          }
          return (seconds, bytes)
        }
      }
      var all: (seconds: [Double], bytes: Int) = ([], 0)
      for try await phone in group {
        all.seconds += phone.seconds
        all.bytes += phone.bytes
      }
      return all
    }
  }

  /// One preload: every path, `connectionsPerPhone` at a time; the response bytes. `check`: a
  /// batch is read to see that it holds every game (a phone's first: it costs the client's CPU,
  /// which shares the machine with the server).
  func preload(_ client: HTTPClient, paths: [String], games: Int, check: Bool) async throws -> Int {
    try await withThrowingTaskGroup(of: Int.self) { group in
      var next = paths.startIndex
      var bytes = 0
      func request(_ path: String) async throws -> Int {
        let (status, head, body) = try await get(client, path)
        guard status == 200 else { throw StatlineError(.io, "\(path) answered \(status)") }
        if check, mode == .batch, Self.entries(in: body) != games {
          throw StatlineError(.io, "\(path) did not hold the box scores of all \(games) games")
        }
        return head + body.count
      }
      while next < paths.endIndex, next < Self.connectionsPerPhone {
        let path = paths[next]
        group.addTask { try await request(path) }
        next += 1
      }
      for try await answered in group {
        bytes += answered
        if next < paths.endIndex {
          let path = paths[next]
          group.addTask { try await request(path) }
          next += 1
        }
      }
      return bytes
    }
  }

  /// A GET (asking for gzip unless told not to): the status, the head's bytes (status line and fields as sent) and
  /// the body as it came (still gzipped).
  func get(_ client: HTTPClient, _ path: String, gzip: Bool = true) async throws -> (Int, Int, [UInt8]) {
    var request = HTTPClientRequest(url: base + path)
    if gzip { request.headers.add(name: "Accept-Encoding", value: "gzip") }
    let response = try await client.execute(request, timeout: .seconds(30))
    let head = response.headers.reduce("HTTP/1.1 200 OK\r\n\r\n".utf8.count) {
      $0 + $1.name.utf8.count + $1.value.utf8.count + 4
    }
    let body = try await response.body.collect(upTo: 1 << 26)
    return (Int(response.status.code), head, Array(buffer: body))
  }

  /// How many box scores a gzipped batch holds.
  static func entries(in body: [UInt8]) -> Int? {
    var buffer = ByteBuffer(bytes: body)
    guard let plain = try? buffer.decompress(with: .gzip()),
      let object = try? JSONSerialization.jsonObject(with: Data(buffer: plain)) as? [String: Any],
      let entries = object["boxScores"] as? [String: Any]
    else { return nil }
    return entries.count
  }
}
