import Foundation
import StatlineEvents
import Testing

@Suite struct WebhookSignatureTests {
  @Test func theSpecificationsExampleSignsTheSame() throws {
    // The example of the Standard Webhooks specification.
    let key = try #require(WebhookSignature.key(fromSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
    let body = Data(#"{"test": 2432232314}"#.utf8)
    let signature = WebhookSignature.sign(
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body, key: key)
    #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    #expect(
      WebhookSignature.verify(
        header: "v1,bm9wZQ== \(signature)", id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body,
        key: key))
    #expect(
      !WebhookSignature.verify(
        header: signature, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_331, body: body, key: key))
  }

  @Test func aSecretWithoutThePrefixIsItsBytesAndBadBase64IsRefused() {
    #expect(WebhookSignature.key(fromSecret: "hunter2") == Array("hunter2".utf8))
    #expect(WebhookSignature.key(fromSecret: "whsec_***") == nil)
  }
}
