import Foundation
import StatlineCore

/// A scoreboard answer with what the page and its URL say about it.
struct ESPNScoreboard: Sendable {
  var answer: ESPNScoreboardAnswer
  var sport: Sport
  /// The day the URL asks for (`dates=20251126` → `2025-11-26`): ESPN lists a game on the day
  /// it is played in the US, so this is its local date. Nil for today's board or a range.
  var day: String?
}

/// Reads ESPN's site-API scoreboard for any sport whose league is known or configured
/// (`ESPNLeagues`). The league comes from the answer (`leagues[0].slug`), else from the URL; a
/// league that is neither known nor configured is refused, naming it.
struct ESPNScoreboardParser: PageParser {
  var leagues: [String: Sport]

  func parse(_ page: Page) throws -> ESPNScoreboard {
    let answer = try JSONPage.read(page) { (root) throws(JSONShapeError) in try ESPNScoreboardAnswer(json: root) }
    guard let slug = answer.leagues?.first?.slug ?? ESPNLeagues.slug(inURL: page.url) else {
      throw StatlineError(
        .wrongPage,
        "the answer names no league (no leagues[0].slug) and its URL is no /sports/{sport}/{league}/scoreboard",
        location: page.location, hint: "replay it with --url https://site.api.espn.com/apis/site/v2/sports/…/scoreboard"
      )
    }
    guard let sport = leagues[slug] else {
      let name = answer.leagues?.first?.name.map { " (\($0))" } ?? ""
      throw StatlineError(
        .unsupported, "the ESPN league '\(slug)'\(name) is not one Statline knows the sport of",
        location: page.location,
        hint: "name it in statline.yml: sources: { espn: { options: { league.\(slug): <sport> } } }")
    }
    return ESPNScoreboard(answer: answer, sport: sport, day: Self.day(inURL: page.url))
  }

  /// `dates=20251126` → `2025-11-26`; nil without one, or for a range (`20251126-20251130`).
  static func day(inURL url: String?) -> String? {
    guard let url, let query = URLComponents(string: url)?.queryItems,
      let dates = query.first(where: { $0.name == "dates" })?.value, dates.count == 8, dates.allSatisfy(\.isNumber)
    else { return nil }
    let digits = Array(dates)
    let day = "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))"
    return BatchValidator.isDate(day) ? day : nil
  }
}
