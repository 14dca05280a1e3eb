import Foundation
import StatlineCore
import StatlineEngine

/// A fetcher that answers from a script, per URL, and records every request: the fake for
/// politeness and scheduler tests. The last answer for a URL repeats; an unscripted URL is 404.
public actor ScriptedFetcher: Fetcher {
  public enum Answer: Sendable {
    case page(status: Int, headers: [String: String] = [:], body: String = "")
    case failure(StatlineError)

    public static func ok(_ body: String, headers: [String: String] = [:]) -> Answer {
      .page(status: 200, headers: headers, body: body)
    }
  }

  private var script: [String: [Answer]]
  public private(set) var requests: [FetchRequest] = []

  public init(_ script: [String: [Answer]] = [:]) { self.script = script }

  public func set(_ url: String, _ answers: [Answer]) { script[url] = answers }

  /// How many requests went to `url`.
  public func count(_ url: String) -> Int { requests.filter { $0.url == url }.count }

  public func fetch(_ request: FetchRequest) async throws -> Page {
    requests.append(request)
    var answers = script[request.url] ?? []
    let answer = answers.first ?? .page(status: 404)
    if answers.count > 1 {
      answers.removeFirst()
      script[request.url] = answers
    }
    switch answer {
    case .failure(let error): throw error
    case .page(let status, let headers, let body):
      return Page(url: request.url, status: status, headers: headers, body: Data(body.utf8))
    }
  }
}
