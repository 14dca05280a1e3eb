import Foundation
import StatlineCore
import StatlineEvents
import StatlineLoopback
import StatlineTesting
import Testing

/// A secret in a webhook URL's query (`?token=…`) never appears in a delivery's error, which is
/// what logs and `statline events failed` show.
@Suite struct SinkURLSecretTests {
  @Test func aFailedDeliveryNamesTheURLWithItsTokenHidden() async throws {
    let server = try await LoopbackServer.start { _ in .respond(status: 500, body: "down") }
    defer { Task { try? await server.stop() } }
    let sink = try HostileReceiverTests.sink("\(server.baseURL)/hook?token=s3cret-value&team=duke")
    let game = Game(
      id: "game:2026-03-07:lacrosse-men:193~457", sport: .lacrosseMen, status: .live, period: 1,
      away: TeamLine(team: TeamRef(name: "Duke"), score: 1),
      home: TeamLine(team: TeamRef(name: "North Carolina"), score: 0))
    var event = ChangeEvent(.goal, game: game)
    event.id = "evt_1"
    event.sequence = 1
    let error = await #expect(throws: EventDeliveryError.self) { try await sink.deliver(event) }
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains("HTTP 500") && text.contains("token=***&team=duke"), "\(text)")
    #expect(!text.contains("s3cret-value"), "\(text)")
  }
}
