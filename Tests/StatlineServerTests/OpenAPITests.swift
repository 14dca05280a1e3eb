import Foundation
import StatlineCore
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

/// `/openapi.json` describes every route, and every route's real answers fit it.
@Suite(.serialized) struct OpenAPITests {
  /// JSON as decoded for checking (booleans stay booleans, integers integers).
  indirect enum JSON: Decodable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? container.decode(Int64.self) {
        self = .int(value)
      } else if let value = try? container.decode(Double.self) {
        self = .double(value)
      } else if let value = try? container.decode(String.self) {
        self = .string(value)
      } else if let value = try? container.decode([JSON].self) {
        self = .array(value)
      } else {
        self = .object(try container.decode([String: JSON].self))
      }
    }

    subscript(_ key: String) -> JSON? { if case .object(let fields) = self { fields[key] } else { nil } }
    var string: String? { if case .string(let text) = self { text } else { nil } }
    var typeName: String {
      switch self {
      case .null: "null"
      case .bool: "boolean"
      case .int: "integer"
      case .double: "number"
      case .string: "string"
      case .array: "array"
      case .object: "object"
      }
    }
  }

  /// The problems of `value` against `schema` (empty: it fits).
  static func check(_ value: JSON, _ schema: JSON, _ document: JSON, at path: String) -> [String] {
    if let reference = schema["$ref"]?.string {
      let name = String(reference.dropFirst("#/components/schemas/".count))
      guard let resolved = document["components"]?["schemas"]?[name] else { return ["\(path): no schema \(name)"] }
      return check(value, resolved, document, at: path)
    }
    if case .array(let options)? = schema["oneOf"] {
      return options.contains { check(value, $0, document, at: path).isEmpty }
        ? [] : ["\(path): fits none of oneOf"]
    }
    var problems: [String] = []
    switch schema["type"] {
    case .string(let type)?:
      if !(type == value.typeName || (type == "number" && value.typeName == "integer")) {
        return ["\(path): \(value.typeName), not \(type)"]
      }
    case .array(let types)?:
      if !types.contains(where: { $0.string == value.typeName }) {
        return ["\(path): \(value.typeName), not one of \(types.compactMap(\.string))"]
      }
    default: break
    }
    if case .array(let allowed)? = schema["enum"] {
      let fits = allowed.contains { option in
        switch (option, value) {
        case (.null, .null): true
        case (.string(let a), .string(let b)): a == b
        default: false
        }
      }
      if !fits { problems.append("\(path): \(value) is not in the enum") }
    }
    switch value {
    case .object(let fields):
      if case .array(let required)? = schema["required"] {
        for name in required.compactMap(\.string) where fields[name] == nil {
          problems.append("\(path): required '\(name)' is missing")
        }
      }
      for (name, field) in fields {
        if let property = schema["properties"]?[name] {
          problems += check(field, property, document, at: "\(path).\(name)")
        } else if case .bool(false)? = schema["additionalProperties"] {
          problems.append("\(path): '\(name)' is not in the document")
        } else if let extra = schema["additionalProperties"], case .object = extra {
          problems += check(field, extra, document, at: "\(path).\(name)")
        }
      }
    case .array(let items):
      if let item = schema["items"] {
        for (index, element) in items.enumerated() {
          problems += check(element, item, document, at: "\(path)[\(index)]")
        }
      }
    default: break
    }
    return problems
  }

  @Test func everyRouteIsDocumentedAndItsAnswersFitTheDocument() async throws {
    let (path, writer) = try await ReadAPITests.store()
    // Polls, and a game whose team line takes its rank from the primary one.
    try await RankingsAPITests.write(to: writer)
    var configuration = ReadAPI.Configuration()
    configuration.primaryPolls = [.lacrosseMen: RankingsAPITests.poll]
    let api = ReadAPI(
      reader: try SQLiteStore(readOnlyPath: path), configuration: configuration, metrics: ServerMetrics(),
      now: { ReadAPITests.now })
    try await ReadAPITests.withServer(api: api) { base in
      let answer = try await ReadAPITests.get(base + "/openapi.json")
      #expect(answer.status == 200)
      let document = try JSONDecoder().decode(JSON.self, from: answer.body)
      #expect(document["openapi"]?.string == "3.1.0")
      // Every route the API serves, with a URL that answers 200 from the test's store.
      let routes: [(template: String, url: String)] = [
        ("/healthz", "/healthz"), ("/readyz", "/readyz"), ("/openapi.json", "/openapi.json"),
        ("/v1/scoreboard", "/v1/scoreboard?date=2026-03-07"), ("/v1/games/{id}", "/v1/games/ncaa:1"),
        ("/v1/games/{id}/boxscore", "/v1/games/ncaa:1/boxscore"),
        ("/v1/boxscores", "/v1/boxscores?ids=ncaa:1,ncaa:9"),
        ("/v1/bundle", "/v1/bundle?sport=lacrosse-men&season=2026"),
        ("/v1/games/{id}/plays", "/v1/games/ncaa:1/plays?after=1&limit=2"), ("/v1/teams", "/v1/teams"),
        ("/v1/teams/{id}", "/v1/teams/ncaa:t-ncaa:1-a"),
        ("/v1/teams/{id}/games", "/v1/teams/ncaa:t-ncaa:1-a/games?season=2026"),
        ("/v1/changes", "/v1/changes?since=0&limit=50"), ("/v1/events", "/v1/events?since=0"),
        ("/v1/leaders", "/v1/leaders?sport=lacrosse-men&season=2026"),
        ("/v1/standings", "/v1/standings?sport=lacrosse-men&season=2026"), ("/v1/status", "/v1/status"),
        ("/v1/rankings", "/v1/rankings?sport=lacrosse-men"), ("/v1/rankings/polls", "/v1/rankings/polls"),
      ]
      guard case .object(let paths)? = document["paths"] else {
        Issue.record("the document has no paths")
        return
      }
      #expect(
        Set(paths.keys)
          == Set(
            routes.map(\.template) + [
              "/v1/events/stream", "/metrics", "/", "/v1/devices", "/v1/devices/{id}", "/v1/devices/channels/{gameId}",
              "/v1/teams/{id}/logo",
            ]),
        "every route is documented, and only those (the device routes are checked by DeviceAPITests, the logo by LogoAPITests)"
      )
      for route in routes {
        let answer = try await ReadAPITests.get(base + route.url)
        #expect(answer.status == 200, "\(route.url)")
        guard
          let schema = paths[route.template]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"]
        else {
          Issue.record("\(route.template) documents no 200 schema")
          continue
        }
        let problems = Self.check(
          try JSONDecoder().decode(JSON.self, from: answer.body), schema, document, at: route.url)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
      }
      let page = try await ReadAPITests.get(base + "/", headers: ["Accept": "text/html"])
      #expect(page.status == 200 && paths["/"]?["get"]?["responses"]?["200"]?["content"]?["text/html"] != nil)
      let metrics = try await ReadAPITests.get(base + "/metrics")
      #expect(
        metrics.status == 200 && paths["/metrics"]?["get"]?["responses"]?["200"]?["content"]?["text/plain"] != nil)
      // The stream's frames carry change events as the document describes them.
      let media = paths["/v1/events/stream"]?["get"]?["responses"]?["200"]?["content"]?["text/event-stream"]
      let eventSchema = try #require(media?["x-frame-data"])
      var frames = EventStreamTests.FrameReader(try await EventStreamTests.open(base + "/v1/events/stream?since=0"))
      for frame in try await frames.events(through: 8) {
        let problems = Self.check(
          try JSONDecoder().decode(JSON.self, from: Data((frame.data ?? "").utf8)), eventSchema, document,
          at: "stream event \(frame.id ?? 0)")
        #expect(problems.isEmpty, "\(problems.prefix(5))")
      }
      // Problems fit the Problem schema.
      let problemSchema = JSON.object(["$ref": .string("#/components/schemas/Problem")])
      for url in ["/v1/games/ncaa:404", "/v1/scoreboard?date=x", "/v1/changes?since=99999", "/v1/nope"] {
        let answer = try await ReadAPITests.get(base + url)
        let problems = Self.check(
          try JSONDecoder().decode(JSON.self, from: answer.body), problemSchema, document, at: url)
        #expect(problems.isEmpty, "\(problems)")
      }
    }
  }
}

/// The OpenAPI document names every sport's stat keys where `/v1/leaders` takes one.
struct OpenAPIStatKeysTests {
  @Test func theLeadersStatParameterListsEverySportsKeys() throws {
    let file = PackageRoot.file("Sources/StatlineServer/openapi.json")
    let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: file)) as? [String: Any]
    let paths = try #require(document?["paths"] as? [String: Any])
    let get = try #require((paths["/v1/leaders"] as? [String: Any])?["get"] as? [String: Any])
    let stat = try #require(
      (get["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "stat" }?["description"] as? String)
    for profile in SportProfile.all {
      for key in profile.statKeys { #expect(stat.contains(key), "\(profile.sport): \(key)") }
    }
  }
}
