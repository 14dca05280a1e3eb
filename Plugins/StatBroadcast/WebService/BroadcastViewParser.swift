import Foundation
import StatlineCore
import StatlineHTML

/// The status bar of a broadcast view, as the decoded HTML shows it.
struct BroadcastView: Sendable, Equatable {
  var eventId: String
  var sportCode: String
  var visitor: String
  var home: String
  var visitorScore: String
  var homeScore: String
  /// The status bar's clock cell ("Top 8th", "Final", "2nd 04:12").
  var status: String
  /// The view's line score, when it shows one.
  var lineScore: BroadcastLineScore?
}

/// Reads `…/interface/webservice/stats?data=…` (a view such as `…views.broadcast.xsl`):
/// decodes the answer and reads the status bar — team names, scores, status.
struct BroadcastViewParser: PageParser {
  func parse(_ page: Page) throws -> BroadcastView {
    let bytes = try WebServiceCodec.decodeBytes(page)
    let parameters = page.url.map(WebServiceCodec.parameters) ?? [:]
    guard let event = parameters["event"], !event.isEmpty else {
      throw StatlineError(
        .wrongPage, "the page URL carries no event id in its data parameter",
        hint: "replay it with --url set to the stats request it answered")
    }
    var reader = BroadcastViewReader()
    try HTMLStream.read(bytes, into: &reader, url: page.url)
    guard let bar = reader.statusBar else {
      throw StatlineError(
        .wrongPage, "the decoded view has no status bar (.statusbar)",
        hint: "the view (XSL) may be another one, or the layout changed")
    }
    func first(_ className: String) throws(StatlineError) -> String {
      guard let text = bar.descendants(withClass: className).first?.text, !text.isEmpty else {
        throw StatlineError(.wrongPage, "the status bar has no .\(className)", hint: "the layout may have changed")
      }
      return text
    }
    let scores = bar.descendants(withClass: "sb-teamscore").map(\.text).filter { !$0.isEmpty }
    guard scores.count >= 2 else {
      throw StatlineError(.wrongPage, "the status bar shows \(scores.count) scores, not 2")
    }
    let clock = bar.descendants(withClass: "sb-statusbar-clock").first
    let status = clock?.descendants(withClass: "font-size-125").first?.text ?? clock?.text ?? ""
    return BroadcastView(
      eventId: event, sportCode: parameters["sport"] ?? "", visitor: try first("sb-teamnameV"),
      home: try first("sb-teamnameH"), visitorScore: scores[0], homeScore: scores[1], status: status,
      lineScore: BroadcastLineScore.find(in: reader.tables))
  }
}

/// The status bar → a game: a "Final" status is final, an inning or period is live with that
/// period, anything else is unknown (never guessed). The line score gives the period scores
/// when its lines add up to its totals and to the status bar's scores; otherwise they are left
/// out, with a warning that says why (the status bar's score still stands).
struct BroadcastViewNormalizer: Normalizer {
  func normalize(_ view: BroadcastView, page: Page) throws -> Batch {
    guard let away = Int(view.visitorScore), let home = Int(view.homeScore) else {
      throw StatlineError(.wrongPage, "the scores '\(view.visitorScore)' and '\(view.homeScore)' are not numbers")
    }
    var game = Game(
      id: "\(StatBroadcastSource.id):\(view.eventId)", sport: WebServiceSports.sport(of: page, code: view.sportCode),
      status: .unknown, periodLabel: view.status.isEmpty ? nil : view.status,
      away: TeamLine(team: TeamRef(id: WebServiceSports.teamId(view.visitor), name: view.visitor), score: away),
      home: TeamLine(team: TeamRef(id: WebServiceSports.teamId(view.home), name: view.home), score: home))
    let words = view.status.lowercased().split(separator: " ")
    if words.first.map({ $0.hasPrefix("final") }) == true {
      game.status = .final
      game.away.winner = away > home
      game.home.winner = home > away
    } else if let period = words.lazy.compactMap(Self.ordinal).first {
      game.status = .live
      game.period = period
    }
    var warnings: [String] = []
    if let line = view.lineScore {
      let sums = (line.visitor.reduce(0, +), line.home.reduce(0, +))
      if sums.0 == away && sums.1 == home && (line.visitorTotal ?? away) == away && (line.homeTotal ?? home) == home {
        game.away.periodScores = line.visitor
        game.home.periodScores = line.home
      } else {
        warnings.append(
          "the line score \(line.visitor) / \(line.home) (totals \(line.visitorTotal.map(String.init) ?? "none")-"
            + "\(line.homeTotal.map(String.init) ?? "none")) does not add up to the score \(away)-\(home): "
            + "period scores left out")
      }
    }
    return Batch(games: [game], warnings: warnings)
  }

  /// "8th" → 8, "1st" → 1.
  static func ordinal(_ word: Substring) -> Int? {
    let digits = word.prefix { $0.isNumber }
    let suffix = word.dropFirst(digits.count)
    guard !digits.isEmpty, ["st", "nd", "rd", "th"].contains(String(suffix)) else { return nil }
    return Int(digits)
  }
}
