import Foundation
import StatlineCore

/// A parser that yields one game named after the page body, or fails as told.
struct EchoParser: PageParser {
  var failure: (any Error)?
  func parse(_ page: Page) throws -> String {
    if let failure { throw failure }
    return String(decoding: page.body, as: UTF8.self)
  }
}

struct EchoNormalizer: Normalizer {
  func normalize(_ records: String, page: Page) throws -> Batch {
    Batch(games: [
      Game(
        id: "test:\(records.count)", sport: .lacrosseMen, status: .scheduled,
        away: TeamLine(team: TeamRef(name: "Away")), home: TeamLine(team: TeamRef(name: "Home")))
    ])
  }
}

func entry(
  _ id: String, source: String = "test", urls: [String] = [], priority: Int = ParserEntry.Priority.site,
  sniff: String? = nil, failure: (any Error)? = nil
) -> ParserEntry {
  var sniffer: (@Sendable (Page) -> Bool)?
  if let sniff { sniffer = { @Sendable page in page.prefix().contains(sniff) } }
  return ParserEntry(
    id: id, source: source, summary: id, format: .html, urlPatterns: urls.map { try! URLPattern($0) },
    priority: priority, sniffer: sniffer, parser: EchoParser(failure: failure), normalizer: EchoNormalizer())
}

func plugin(_ id: String, _ entries: [ParserEntry]) -> SourcePlugin {
  SourcePlugin(id: id, name: id, folder: id) { _ in entries }
}

func page(_ body: String, url: String? = nil, status: Int = 200, headers: [String: String] = [:]) -> Page {
  Page(url: url, status: status, headers: headers, body: Data(body.utf8))
}
