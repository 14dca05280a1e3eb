import Foundation
import StatlineCore

extension ReadAPI {
  /// How a request for `/v1/events/stream` is answered: a stream from a sequence, or a problem.
  public enum StreamStart: Sendable, Equatable {
    /// Stream every event after this sequence, `behind` events older than the newest.
    case after(Int64, behind: Int64)
    /// Not a stream: a problem (or a HEAD's headers).
    case answer(APIResponse)
  }

  /// True when `path` is the event stream's.
  public static func isEventStream(_ path: String) -> Bool {
    path.split(separator: "/", omittingEmptySubsequences: true) == ["v1", "events", "stream"]
  }

  /// Where a client's stream starts: after `Last-Event-ID` (a reconnect resumes where it broke
  /// off), else after `since`, else after the newest event (what happens from now on).
  public func streamStart(_ request: APIRequest) async -> StreamStart {
    do {
      guard request.method == "GET" || request.method == "HEAD" else {
        return .answer(Problem.methodNotAllowed(path: request.path))
      }
      if let accept = request.headers["accept"], !Self.acceptsEventStream(accept) {
        throw Problem(
          title: "Not acceptable", status: 406,
          detail: "the stream is text/event-stream; the request accepts '\(accept.prefix(80))'")
      }
      let query = try APIQuery(request.query, allowed: ["since"])
      let newest = try await reader.lastEventSequence()
      var start = try query.int("since", in: 0...Int64.max, default: newest)
      if let header = request.headers["last-event-id"] {
        guard let id = Int64(header.trimmingCharacters(in: .whitespaces)), id >= 0 else {
          throw Problem(
            title: "Bad Last-Event-ID", status: 400,
            detail: "Last-Event-ID is '\(header.prefix(40))'; expected an event's sequence, a whole number ≥ 0")
        }
        start = id
      }
      guard start <= newest else {
        throw Problem(
          title: "Cursor from elsewhere", status: 410,
          detail:
            "event \(start) is beyond this store's newest event \(newest): it comes from another store; reconnect without Last-Event-ID, or with since=0"
        )
      }
      if request.method == "HEAD" { return .answer(APIResponse(status: 200, headers: Self.streamHeaders)) }
      return .after(start, behind: newest - start)
    } catch let problem as Problem {
      return .answer(problem.response(path: request.path))
    } catch {
      return .answer(Problem.storeUnavailable(error).response(path: request.path))
    }
  }

  public static let streamHeaders = [
    "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no",
  ]

  static func acceptsEventStream(_ accept: String) -> Bool {
    accepts(accept, anyOf: ["*/*", "text/*", "text/event-stream"])
  }

  /// One event as a Server-Sent Events frame: `id` is its sequence (what `Last-Event-ID` sends
  /// back), `event` its type, `data` its JSON on one line.
  public static func frame(_ event: ChangeEvent) -> [UInt8] {
    let json = (try? encoder.encode(event)) ?? Data()
    return Array("id: \(event.sequence)\nevent: \(event.type.rawValue)\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)
  }
}
