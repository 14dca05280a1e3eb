import AsyncHTTPClient
import Foundation
import StatlineCore
import StatlineEvents
import StatlineLoopback
import StatlineTesting
import Testing

/// A receiver that answers with redirects (one with a port out of range used to trap the
/// process inside the HTTP client), and a sink URL with credentials.
@Suite(.serialized) struct HostileReceiverTests {
  static func sink(_ url: String) throws -> WebhookSink {
    try WebhookSink(
      name: "hook", url: url, secret: EventDeliveryTests.secret, client: EventDeliveryTests.client,
      timeout: .seconds(2), maxInFlight: 1,  // one at a time: the events arrive in store order
      now: { Date(timeIntervalSince1970: 1_772_900_000) })
  }

  @Test func aRedirectIsAFailedDeliveryNeverFollowedAndEndsAsADeadLetter() async throws {
    let store = try await EventDay.store()
    let elsewhere = try await Receiver(key: EventDeliveryTests.key)
    let redirects: [LoopbackServer.Behavior] =
      [.redirect("http://127.0.0.1:99999/x"), .respond(status: 308, headers: ["Location": ""])]
      + Array(repeating: .respond(status: 307, headers: ["Location": elsewhere.url]), count: 40)
    let receiver = try await Receiver(failFirst: redirects, key: EventDeliveryTests.key)
    defer {
      Task {
        try? await receiver.server.stop()
        try? await elsewhere.server.stop()
      }
    }
    let clock = SteppingClock()
    let delivery = EventDeliveryTests.delivery(store, [try Self.sink(receiver.url)], clock: clock)
    _ = try await delivery.drain(delivery.sinks[0])
    #expect(elsewhere.server.requests.isEmpty, "the signed body was posted nowhere else")
    let letters = try await store.deadLetters(sink: "hook")
    #expect(letters.map(\.event.id) == ["evt_1"], "retried until the give-up age, then a dead letter")
    #expect(letters.first?.error.contains("HTTP 307, a redirect, which a webhook never follows") == true)
    #expect((letters.first?.attempts ?? 0) > 20)
    #expect(receiver.ids == (2...14).map { "evt_\($0)" }, "the other events were delivered")
  }

  @Test func credentialsInTheURLAreSentAsBasicAuthAndNeverShown() async throws {
    let store = try await EventDay.store()
    let receiver = try await Receiver(failFirst: [.respond(status: 400)], key: EventDeliveryTests.key)
    defer { Task { try? await receiver.server.stop() } }
    let url = receiver.url.replacingOccurrences(of: "http://", with: "http://statline:s3cret@")
    let sink = try Self.sink(url)
    #expect(!sink.url.contains("s3cret"))
    let delivery = EventDeliveryTests.delivery(store, [sink], clock: SteppingClock())
    _ = try await delivery.drain(delivery.sinks[0])
    let sent = receiver.server.requests.map { $0.headers["authorization"] }
    #expect(sent.count == 14 && sent.allSatisfy { $0 == "Basic " + Data("statline:s3cret".utf8).base64EncodedString() })
    let letters = try await store.deadLetters(sink: "hook")
    #expect(letters.count == 1 && letters.allSatisfy { !$0.error.contains("s3cret") }, "\(letters.map(\.error))")
  }

  @Test func aSinkURLWithAPortOutOfRangeIsRefusedAtStart() {
    for url in ["http://127.0.0.1:99999/hook", "http://u:pw@127.0.0.1:0/hook", "ftp://127.0.0.1/hook"] {
      do {
        _ = try Self.sink(url)
        Issue.record("\(url) must be refused")
      } catch let error as StatlineError {
        #expect(error.kind == .configuration && error.reason.hasPrefix("sink hook: "), "\(error)")
        #expect(!error.description.contains("pw@"), "\(error)")
      } catch {
        Issue.record("\(error)")
      }
    }
  }
}
