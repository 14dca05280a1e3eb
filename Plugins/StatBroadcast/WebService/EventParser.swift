import Foundation
import StatlineCore
import StatlineHTML

/// The web service's event metadata (`<BCSResponse><event …>`), decoded.
struct EventRecord: Sendable, Equatable {
  var attributes: [String: String]
  /// Child elements' text, for the children in `EventReader.keptFields`: `title`, `venue`,
  /// `location`, `date`, `dbdate`, `time`, `xmlfile`, `sport`, `sportLong`, `gender`.
  var fields: [String: String]
}

/// Reads `…/interface/webservice/event/{id}?data=…`.
struct EventParser: PageParser {
  func parse(_ page: Page) throws -> EventRecord {
    var reader = EventReader()
    try XMLStream.read(try WebServiceCodec.decodeBytes(page), into: &reader, url: page.url)
    guard let record = reader.record else {
      throw StatlineError(
        .wrongPage, "the decoded answer is not event metadata (no /BCSResponse/event)",
        hint: "a 404 means no such event; check the event id")
    }
    return record
  }
}

/// Event metadata → one game, without scores (the metadata has none): its teams, date, start
/// time, venue, neutral site, and whether StatBroadcast calls it completed.
struct EventNormalizer: Normalizer {
  static let noScores = "event metadata carries no score or period: the game's status and score come from its feed"

  func normalize(_ event: EventRecord, page: Page) throws -> Batch {
    guard let id = event.attributes["id"], !id.isEmpty else {
      throw StatlineError(.wrongPage, "the event has no id")
    }
    guard let home = event.attributes["homename"], let visitor = event.attributes["visitorname"], !home.isEmpty,
      !visitor.isEmpty
    else { throw StatlineError(.wrongPage, "event \(id) does not name both teams") }
    let sport = WebServiceSports.sport(
      code: event.fields["sport"] ?? "", gender: event.fields["gender"], name: event.fields["sportLong"])
    let venue = [event.fields["venue"], event.fields["location"]].compactMap { $0 }.filter { !$0.isEmpty }
    let game = Game(
      id: "\(StatBroadcastSource.id):\(id)", sport: sport, status: .unknown,
      periodLabel: event.attributes["completed"] == "1" ? "completed" : nil, date: event.fields["dbdate"],
      startTime: WebServiceSports.startTime(date: event.fields["dbdate"], time: event.fields["time"]),
      venue: venue.isEmpty ? nil : venue.joined(separator: ", "),
      neutralSite: event.attributes["neutral"].map { $0 == "1" },
      away: TeamLine(team: TeamRef(id: WebServiceSports.teamId(visitor), name: visitor)),
      home: TeamLine(team: TeamRef(id: WebServiceSports.teamId(home), name: home)))
    return Batch(games: [game], warnings: [Self.noScores])
  }
}
