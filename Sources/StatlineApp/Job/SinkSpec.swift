import AsyncHTTPClient
import Foundation
import StatlineCore
import StatlineEvents

extension JobConfig {
  /// One configured event sink (`sinks:` in the YAML).
  public struct SinkSpec: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
      /// JSON lines to a file, or to standard output when no `path` is given.
      case jsonl
      /// Signed POSTs to `url` (Standard Webhooks).
      case webhook
    }

    /// Names the sink's cursor and dead letters in the store: keep it stable.
    public var name: String
    public var kind: Kind
    public var path: String?
    public var url: String?
    /// The environment variable that holds the webhook secret (never the secret itself).
    public var secretEnv: String?
    public var timeout: Duration = .seconds(10)
    /// Webhook requests in flight at once (never two of one game).
    public var inFlight = 4
    public var filter = EventFilter.all
    public var retry = DeliveryRetry()

    public init(name: String, kind: Kind) {
      self.name = name
      self.kind = kind
    }
  }
}

/// The configured sinks, built: files opened, secrets read from the environment.
enum EventSinks {
  /// A webhook sink's URL and secret, or why it has none (what `build` and `statline check`
  /// both ask, before any client exists).
  static func checkedWebhook(_ spec: JobConfig.SinkSpec, path: String, environment: [String: String])
    throws(StatlineError) -> (url: String, secret: String)
  {
    guard let url = spec.url else {
      throw StatlineError(.configuration, "\(path).url: a webhook sink needs a url", hint: "url: https://host/path")
    }
    guard let variable = spec.secretEnv else {
      throw StatlineError(
        .configuration, "\(path).secretEnv: a webhook sink needs the name of the variable holding its secret",
        hint: "secretEnv: STATLINE_WEBHOOK_SECRET, and export STATLINE_WEBHOOK_SECRET=whsec_…")
    }
    guard let secret = environment[variable], !secret.isEmpty else {
      throw StatlineError(
        .configuration, "\(path).secretEnv: the environment variable \(variable) is not set",
        hint: "export \(variable)=whsec_… (base64 of the key bytes) before starting statline")
    }
    return (url, secret)
  }

  static func build(
    _ specs: [JobConfig.SinkSpec], client: HTTPClient?,
    environment: [String: String] = ProcessInfo.processInfo.environment, userAgent: String,
    now: @escaping @Sendable () -> Date
  ) throws(StatlineError) -> [any EventSink] {
    var sinks: [any EventSink] = []
    var names: Set<String> = []
    for (index, spec) in specs.enumerated() {
      let path = "sinks[\(index)]"
      guard names.insert(spec.name).inserted else {
        throw StatlineError(
          .configuration, "\(path).name: two sinks are named '\(spec.name)'",
          hint: "each sink needs its own name: it names its cursor in the store")
      }
      switch spec.kind {
      case .jsonl:
        if let file = spec.path {
          sinks.append(try JSONLinesSink(name: spec.name, path: file, filter: spec.filter))
        } else {
          sinks.append(JSONLinesSink(name: spec.name, filter: spec.filter))
        }
      case .webhook:
        let (url, secret) = try checkedWebhook(spec, path: path, environment: environment)
        guard let client else {
          throw StatlineError(.configuration, "\(path): no HTTP client was made for the webhook sinks")
        }
        sinks.append(
          try WebhookSink(
            name: spec.name, url: url, secret: secret, filter: spec.filter, client: client,
            timeout: spec.timeout, maxInFlight: spec.inFlight, userAgent: userAgent, now: now))
      }
    }
    return sinks
  }
}
