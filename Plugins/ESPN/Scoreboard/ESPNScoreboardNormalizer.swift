import Foundation
import StatlineCore

/// ESPN scoreboard events → games and teams. An event without a home and an away competitor is
/// left out and named in the warnings; a score printed before the game starts ("0") is no score.
struct ESPNScoreboardNormalizer: Normalizer {
  func normalize(_ board: ESPNScoreboard, page: Page) throws -> Batch {
    var batch = Batch()
    var teams: [String: Team] = [:]
    for event in board.answer.events {
      guard let competition = event.competitions.first,
        let home = competition.competitors.first(where: { $0.homeAway == "home" }),
        let away = competition.competitors.first(where: { $0.homeAway == "away" })
      else {
        batch.warnings.append("event \(event.id) has no home and away competitors: left out")
        continue
      }
      let status = competition.status ?? event.status
      let state = Self.status(status?.type)
      let started = state == .live || state == .final || state == .suspended
      func line(_ competitor: ESPNScoreboardAnswer.Competitor) -> TeamLine {
        let ref = Self.ref(competitor.team)
        if let id = ref.id, teams[id] == nil {
          teams[id] = Team(
            id: id, name: ref.name, abbreviation: ref.abbreviation, sport: board.sport,
            shortName: competitor.team.location.flatMap { $0 == ref.name || $0.isEmpty ? nil : $0 },
            logoURL: Team.logoURL(competitor.team.logo, page: page.url))
        }
        let rank = competitor.curatedRank?.current.flatMap { (1...25).contains($0) ? $0 : nil }
        var periodScores: [Int] = []
        if started {
          let values = (competitor.linescores ?? []).compactMap(\.value)
          periodScores = values.compactMap(ESPNNumber.whole)
          if periodScores.count < values.count {
            batch.warnings.append(
              "event \(event.id): \(ref.name)'s period scores \(values) are not all numbers of points: left out")
            periodScores = []
          }
        }
        return TeamLine(
          team: ref, score: started ? competitor.score?.int : nil, periodScores: periodScores,
          record: competitor.records?.first { $0.type == "total" }?.summary, rank: rank,
          winner: state == .final ? competitor.winner : nil)
      }
      let start = competition.date ?? event.date
      let period = started ? status?.period.flatMap { $0 > 0 ? $0 : nil } : nil
      batch.games.append(
        Game(
          id: "\(ESPNSource.id):\(event.id)", sport: board.sport, status: state, period: period,
          periodLabel: Self.periodLabel(status?.type, state: state),
          clock: state == .live ? GameText.clock(status?.displayClock) : nil,
          date: board.day ?? start.flatMap(ESPNTime.easternDate), startTime: start.flatMap(ESPNTime.iso),
          venue: competition.venue?.fullName.flatMap { $0.isEmpty ? nil : $0 },
          attendance: competition.attendance.flatMap { $0 > 0 ? $0 : nil }, neutralSite: competition.neutralSite,
          away: line(away), home: line(home)))
    }
    batch.teams = teams.values.sorted { $0.id < $1.id }
    return batch
  }

  static func ref(_ team: ESPNScoreboardAnswer.Team) -> TeamRef {
    TeamRef(
      id: team.id.map { "\(ESPNSource.id):team-\($0)" },
      name: team.displayName ?? team.location ?? team.shortDisplayName ?? "", abbreviation: team.abbreviation)
  }

  /// ESPN's status names first (a postponed game is `post`), then its state; anything else is
  /// unknown, never scheduled.
  static func status(_ type: ESPNScoreboardAnswer.Status.Kind?) -> GameStatus {
    switch type?.name {
    case "STATUS_POSTPONED": return .postponed
    case "STATUS_CANCELED", "STATUS_CANCELLED", "STATUS_FORFEIT": return .cancelled
    case "STATUS_SUSPENDED": return .suspended
    default: break
    }
    switch type?.state {
    case "pre": return .scheduled
    case "in": return .live
    case "post": return type?.completed == false ? .unknown : .final
    default: return .unknown
    }
  }

  /// Live: the period as ESPN names it ("9:38 - 1st Half" → "1st Half", "Halftime"); final: its
  /// detail ("Final", "Final/OT").
  static func periodLabel(_ type: ESPNScoreboardAnswer.Status.Kind?, state: GameStatus) -> String? {
    guard let detail = type?.detail, !detail.isEmpty else { return nil }
    switch state {
    case .live: return detail.components(separatedBy: " - ").last
    case .final: return detail
    default: return nil
    }
  }
}
