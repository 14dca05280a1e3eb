import Foundation
import StatlineCore

/// Play rows of the sports without a grammar here (baseball, softball, football, soccer, field
/// hockey, volleyball, ice hockey) → plays, by their running score: a row whose printed score
/// rises is that side's score, by how much it rose (`details.points`; a goal in the goal
/// sports, a rally point in volleyball, where the score is the set's and starts again each
/// set), with its kind where the text says (`homeRun`, `touchdown`, `fieldGoal`, `safety`,
/// `extraPoint`, `twoPointConversion`). Every row keeps its text and period; rows of period
/// ends and starts are typed, the rest `other`. A scoring play names its scorer where the text
/// does (`scorer`, `assist`). A printed score that falls (a correction) is not a play's score: the row is
/// `other`, and the score it prints is the new base.
enum ScoredPlayRows {
  static func plays(_ rows: [PlayRow], gameId: String, sport: Sport) -> [Play] {
    let goals = sport.profile?.scoring == .goals
    let sets = sport.profile?.scoring == .sets
    var base = (away: 0, home: 0)
    var period = rows.first?.period
    return rows.filter { $0.listed || !$0.text.isEmpty }.enumerated().map { index, row in
      if sets, row.period != period { base = (0, 0) }
      period = row.period
      var play = Play(
        gameId: gameId, sequence: index + 1, period: row.period, periodLabel: row.periodLabel,
        clock: GameText.clock(row.clock), side: row.side, type: kind(of: row.text), text: row.text)
      guard let away = row.away, let home = row.home else { return play }
      let rise = (away: away - base.away, home: home - base.home)
      base = (away, home)
      guard rise.away >= 0, rise.home >= 0, rise.away + rise.home > 0 else { return play }
      play.side = rise.away > 0 ? .away : .home
      play.type = goals ? .goal : .score
      play.awayScore = away
      play.homeScore = home
      if !goals { play.details["points"] = String(max(rise.away, rise.home)) }
      let lowered = row.text.lowercased()
      if let kind = scoringKind(lowered, sport: sport) { play.details["kind"] = kind }
      play.player =
        sport == .football
        ? FootballDrives.scorer(row.text) ?? scorer(row.text, lowered: lowered)
        : scorer(row.text, lowered: lowered)
      play.assist = assist(row.text, lowered: lowered)
      if row.fromLineScore {
        play.details["fromLineScore"] = "true"
        play.details["unread"] = "true"
      }
      return play
    }
  }

  /// Who scored, where the text names a person the way the site prints one ("Last, First"):
  /// after `Goal by` / `Kill by` / `ace by`, a pass's receiver after `pass complete to`, else
  /// the name the row opens with ("Diaz, Mateo homered …"); nil when there is none. Any other
  /// `by` names someone else (a run that "scored on a wild pitch by" the pitcher).
  static func scorer(_ text: String, lowered: String) -> String? {
    // A point won on the other side's error names the player who erred, not a scorer.
    guard FastText.offset(of: "error", in: lowered) == nil else { return nil }
    for marker in ["pass complete to ", "goal by ", "kill by ", "ace by "] {
      if let at = FastText.offset(of: marker, in: lowered) {
        let start = text.utf8.index(text.utf8.startIndex, offsetBy: at + marker.utf8.count)
        if let name = leadingName(Substring(text)[start...]) { return name }
      }
    }
    return leadingName(Substring(text))
  }

  /// "Goal by Grant, Leo (Assist by Hayes, Omar)" → "Omar Hayes".
  static func assist(_ text: String, lowered: String) -> String? {
    guard let at = FastText.offset(of: "assist by ", in: lowered) else { return nil }
    return leadingName(Substring(text).dropFirst(at + "assist by ".count))
  }

  /// "Diaz, Mateo homered …" → "Mateo Diaz": a capitalised word, a comma, a capitalised word.
  static func leadingName(_ text: Substring) -> String? {
    let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
    guard words.count >= 2, words[0].hasSuffix(","), words[0].count > 1, words[0].first?.isUppercase == true,
      words[1].first?.isUppercase == true
    else { return nil }
    let first = words[1].trimmingCharacters(in: CharacterSet(charactersIn: ".,;()"))
    guard !first.isEmpty, first.allSatisfy({ $0.isLetter || $0 == "'" || $0 == "-" }) else { return nil }
    return PersonName.normalized("\(words[0].dropLast()), \(first)")
  }

  static func kind(of text: String) -> PlayType {
    let lowered = text.lowercased()
    if lowered.hasPrefix("end of") || lowered.hasPrefix("period end") { return .periodEnd }
    if lowered.hasPrefix("start of") || lowered.hasPrefix("period start") { return .periodStart }
    if FastText.contains(lowered, "timeout") { return .timeout }
    return .other
  }

  /// What a scoring row's text (lower-cased) says it was, in the sports whose scores come in kinds.
  static func scoringKind(_ lowered: String, sport: Sport) -> String? {
    switch sport {
    case .baseball, .softball:
      return FastText.contains(lowered, "homered") || FastText.contains(lowered, "home run") ? "homeRun" : nil
    case .football:
      let kinds: [(String, String)] = [
        ("touchdown", "touchdown"), ("field goal", "fieldGoal"), ("safety", "safety"),
        ("two-point", "twoPointConversion"), ("2-point", "twoPointConversion"), ("kick attempt good", "extraPoint"),
        ("extra point", "extraPoint"), ("pat ", "extraPoint"),
      ]
      return kinds.first { FastText.contains(lowered, $0.0) }?.1
    default:
      return nil
    }
  }

  /// The sport of a play-by-play page of a sport read by its running score: the texts' words
  /// (`PlayRows.otherSport`), then the target's sport, then the period cards (four quarters of
  /// soccer's words are field hockey). Baseball or softball unsaid is refused, saying how to
  /// name it; men's or women's unsaid is the sport without a gender, or `unknown` (ice hockey).
  static func sport(words: String?, periodLabels: [String], hint: Sport?) throws(StatlineError) -> Sport? {
    let quarters = periodLabels.contains { $0.lowercased().contains("quarter") }
    func hinted(_ sports: Set<Sport>) -> Sport? { hint.flatMap { sports.contains($0) ? $0 : nil } }
    switch words {
    case "baseball or softball":
      if let sport = hinted([.baseball, .softball]) { return sport }
      throw StatlineError(
        .unsupported, "the plays are baseball's or softball's, and the page does not say which (nor does its target)",
        hint: "poll it from a target with `sport: baseball` or `softball`, or replay it with --sport baseball")
    case "football": return .football
    case "volleyball": return hinted([.volleyballMen, .volleyballWomen]) ?? .volleyball
    case "soccer", "field hockey":
      if quarters || words == "field hockey" { return .fieldHockey }
      return hinted([.soccerMen, .soccerWomen]) ?? .soccer
    case "ice hockey": return hinted([.iceHockeyMen, .iceHockeyWomen]) ?? .unknown
    default:
      // No words of any sport: the target's, when it names one read by its running score.
      return hint.flatMap { NCAASports.byRunningScore.contains($0) ? $0 : nil }
    }
  }
}
