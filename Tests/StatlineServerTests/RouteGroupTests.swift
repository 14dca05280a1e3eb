import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// A route group mounts beside the read API with a middleware of its own, through a real HTTP
/// client: its routes answer (writes included), its middleware guards them alone, and the read
/// API answers everything else exactly as without the group.
@Suite(.timeLimit(.minutes(1))) struct RouteGroupTests {
  /// A bearer token on every route of the group, and nowhere else.
  struct RequiresToken: RouterMiddleware {
    typealias Context = ConnectionContext
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
      async throws -> Response
    {
      guard request.headers[.authorization] == "Bearer let-me-in" else {
        return Response(status: .unauthorized, headers: [.contentType: "application/problem+json"])
      }
      return try await next(request, context)
    }
  }

  /// `/v1/echo`: POST answers the body it was sent, GET `/v1/echo/{id}` the id.
  struct EchoGroup: RouteGroup {
    let path = "/v1/echo"
    func addRoutes(to router: Router<ConnectionContext>) {
      let group = router.group(RouterPath(path)).add(middleware: RequiresToken())
      group.post { request, _ -> Response in
        let body = try await request.body.collect(upTo: 1 << 16)
        return Response(status: .created, body: ResponseBody(byteBuffer: body))
      }
      group.get(":id") { _, context -> String in try context.parameters.require("id") }
    }
  }

  static func send(_ url: String, _ method: NIOHTTP1.HTTPMethod, body: String? = nil, token: Bool = true) async throws
    -> ReadAPITests.Answer
  {
    var request = HTTPClientRequest(url: url)
    request.method = method
    if token { request.headers.add(name: "Authorization", value: "Bearer let-me-in") }
    if let body { request.body = .bytes(ByteBuffer(string: body)) }
    let response = try await ReadAPITests.client.execute(request, timeout: .seconds(10))
    var fields: [String: String] = [:]
    for (name, value) in response.headers { fields[name.lowercased()] = value }
    let collected = try await response.body.collect(upTo: 1 << 20)
    return ReadAPITests.Answer(status: Int(response.status.code), headers: fields, body: Data(buffer: collected))
  }

  @Test func aGroupAnswersItsRoutesBehindItsMiddlewareAndTheReadAPIAnswersTheRest() async throws {
    let (path, _) = try await ReadAPITests.store()
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), now: { ReadAPITests.now })
    var without: [String: ReadAPITests.Answer] = [:]
    let readPaths = ["/v1/scoreboard?sport=lacrosse-men", "/v1/echoes", "/v1/games/statbroadcast:640301"]
    try await ReadAPITests.withServer(api: api) { base in
      for read in readPaths { without[read] = try await ReadAPITests.get(base + read) }
      without["POST /v1/scoreboard"] = try await Self.send(base + "/v1/scoreboard", .POST, body: "{}")
    }
    try await ReadAPITests.withServer(api: api, groups: [EchoGroup()]) { base in
      let posted = try await Self.send(base + "/v1/echo", .POST, body: #"{"token":"abc"}"#)
      #expect(posted.status == 201 && String(decoding: posted.body, as: UTF8.self) == #"{"token":"abc"}"#)
      let got = try await Self.send(base + "/v1/echo/device-7", .GET)
      #expect(got.status == 200 && String(decoding: got.body, as: UTF8.self) == "device-7")
      #expect(try await Self.send(base + "/v1/echo", .POST, body: "{}", token: false).status == 401)
      #expect(try await Self.send(base + "/v1/echo/device-7", .GET, token: false).status == 401)
      // The read API: the same answers as without the group, and no token asked.
      for read in readPaths {
        let answer = try await ReadAPITests.get(base + read)
        let before = try #require(without[read])
        #expect(answer.status == before.status && answer.body == before.body, "\(read)")
        #expect(answer.headers["etag"] == before.headers["etag"], "\(read)")
      }
      let write = try await Self.send(base + "/v1/scoreboard", .POST, body: "{}")
      let before = try #require(without["POST /v1/scoreboard"])
      #expect(write.status == 405 && write.body == before.body, "a write to the read API is still refused")
    }
  }

  @Test(arguments: [
    ("/v1/devices", "/v1/devices", true), ("/v1/devices", "/v1/devices/abc", true),
    ("/v1/devices", "/v1/devicesx", false), ("/v1/devices", "/v1", false), ("/v1/devices", "/v1/device", false),
  ])
  func aGroupOwnsItsPathAndWhatIsBelowIt(_ prefix: String, _ path: String, _ owned: Bool) {
    struct Named: RouteGroup {
      let path: String
      func addRoutes(to router: Router<ConnectionContext>) {}
    }
    #expect(Named(path: prefix).owns(path) == owned)
  }
}
