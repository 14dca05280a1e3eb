import Foundation
import StatlinePush
import Testing

/// Apple's answer matrix, row by row.
@Suite struct APNsAnswerTests {
  static let now = Date(timeIntervalSince1970: 1_772_900_000)

  static func action(_ status: Int, _ body: String = "", apnsId: String? = nil) -> APNsAnswer.Action {
    APNsAnswer(status: status, apnsId: apnsId, body: Data(body.utf8)).action(at: now)
  }

  @Test func everyRowOfTheMatrix() {
    #expect(Self.action(200, apnsId: "e1") == .accepted(apnsId: "e1"))
    #expect(
      Self.action(410, #"{"reason":"Unregistered","timestamp":1772800000123}"#)
        == .disable(since: Date(timeIntervalSince1970: 1_772_800_000.123)), "dead as of the answer's timestamp")
    #expect(Self.action(410, #"{"reason":"ExpiredToken"}"#) == .disable(since: Self.now))
    guard case .quarantine(let why) = Self.action(400, #"{"reason":"BadDeviceToken"}"#) else {
      Issue.record("BadDeviceToken quarantines")
      return
    }
    #expect(why.contains("sandbox"))
    if case .quarantine = Self.action(400, #"{"reason":"DeviceTokenNotForTopic"}"#) {
    } else {
      Issue.record("DeviceTokenNotForTopic quarantines")
    }
    #expect(Self.action(403, #"{"reason":"ExpiredProviderToken"}"#) == .renewTokenAndRetryOnce)
    #expect(Self.action(429, #"{"reason":"TooManyRequests"}"#) == .backOffDevice)
    #expect(Self.action(429, #"{"reason":"TooManyProviderTokenUpdates"}"#) == .recycleConnection)
    #expect(
      Self.action(413, #"{"reason":"PayloadTooLarge"}"#) == .drop("PayloadTooLarge: the payload is over 4096 bytes"))
    for server in [(500, "InternalServerError"), (503, "ServiceUnavailable"), (503, "Shutdown")] {
      #expect(Self.action(server.0, #"{"reason":"\#(server.1)"}"#) == .retryUntilExpiry)
    }
    #expect(Self.action(400, #"{"reason":"IdleTimeout"}"#) == .retryUntilExpiry)
    for reason in ["InvalidProviderToken", "MissingProviderToken", "BadCertificateEnvironment", "Forbidden"] {
      #expect(Self.action(403, #"{"reason":"\#(reason)"}"#) == .configurationError("APNs answered 403 \(reason)"))
    }
    for reason in ["BadTopic", "InvalidPushType", "BadPriority", "MissingTopic", "TopicDisallowed"] {
      #expect(Self.action(400, #"{"reason":"\#(reason)"}"#) == .configurationError("APNs answered 400 \(reason)"))
    }
    #expect(
      Self.action(400, #"{"reason":"SomethingNew"}"#) == .configurationError("APNs answered 400 SomethingNew"),
      "a reason Apple adds later is kept by name")
    #expect(Self.action(502) == .retryUntilExpiry)
    #expect(APNsAnswer.Reason("Unregistered") == .unregistered && APNsAnswer.Reason("x") == .unknown("x"))
  }
}
