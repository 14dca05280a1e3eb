import Foundation
import StatlineCore

/// The push evaluator's decision for one event and one device (architecture.md#devices), pure:
/// whether the device follows either team, which of its alerts the event is, whether it wants
/// that one (its choice, else the sport's defaults), whether it is in its quiet hours (then only
/// a final goes, silently), and the alert's text, grouping and expiry.
///
/// - `game.started` is `gameStart`; a goal or score is `score`, or `closeGame` for a device that
///   wants close games but not every score when the game is close late (`closeMargin` in the
///   last regulation period or overtime); `game.leadChange` is `leadChange`; `game.periodEnded`
///   is `periodEnd`; `game.final` is `final`; `ranking.published` is `ranking` (to a device that
///   follows a team in the week's top rows).
/// - A `game.corrected` sends nothing (the goal it took back is not announced again); the next
///   alert carries the corrected score. Other events send nothing.
public enum AlertPlanner {
  /// How long an in-game alert is worth delivering, and a final.
  public static let inGameLifetime: TimeInterval = 5 * 60
  public static let finalLifetime: TimeInterval = 6 * 3600
  /// APNs' most bytes in a collapse id.
  public static let maximumCollapseBytes = 64

  public static func plan(_ event: ChangeEvent, for device: Device, at time: Date) -> PlannedAlert? {
    let wanted = device.alerts ?? Device.defaultAlerts(for: event.sport)
    guard let kind = kind(of: event, following: Set(device.teams), wanted: wanted), wanted.contains(kind) else {
      return nil
    }
    let quiet = device.quietHours.map { inQuietHours($0, at: time) } ?? false
    if quiet && kind != .final { return nil }
    let group = collapseId(event.gameId)
    return PlannedAlert(
      deviceId: device.id, eventId: event.id, kind: kind, body: text(event),
      threadId: group, collapseId: group,
      expiresAt: time.addingTimeInterval(kind == .final || kind == .ranking ? finalLifetime : inGameLifetime),
      silent: quiet, data: ["gameId": event.gameId, "sport": event.sport.rawValue, "eventId": event.id],
      plannedAt: time)
  }

  /// Which alert the event is for a device following `teams` that wants `wanted`, if any.
  static func kind(of event: ChangeEvent, following teams: Set<String>, wanted: [Device.Alert]) -> Device.Alert? {
    guard Self.teams(of: event).contains(where: teams.contains) else { return nil }
    if event.type == .rankingPublished { return .ranking }
    switch event.type {
    case .started: return .gameStart
    case .goal, .scored:
      if !wanted.contains(.score) && wanted.contains(.closeGame) && isCloseLate(event) { return .closeGame }
      return .score
    case .leadChange: return .leadChange
    case .periodEnded: return .periodEnd
    case .final: return .final
    default: return nil
    }
  }

  /// The teams whose followers the event may concern: a game's two, or a ranking's top 25
  /// (canonical ids). The evaluator reads only their followers.
  public static func teams(of event: ChangeEvent) -> [String] {
    if event.type == .rankingPublished { return event.ranking?.rows.prefix(25).compactMap(\.canonicalTeamId) ?? [] }
    return [event.away?.id, event.home?.id].compactMap { $0 }
  }

  /// Within one score in the last regulation period or later.
  static func isCloseLate(_ event: ChangeEvent) -> Bool {
    isCloseLate(sport: event.sport, period: event.period, away: event.awayScore, home: event.homeScore)
  }

  static func isCloseLate(sport: Sport, period: Int?, away: Int?, home: Int?) -> Bool {
    guard let period, period >= sport.regulationPeriods, let margin = closeMargin(sport), let away, let home
    else { return false }
    return abs(away - home) <= margin
  }

  /// One score in the sport: a goal or a run; a three in basketball; a touchdown and two in
  /// football; nil in a sport scored in sets.
  static func closeMargin(_ sport: Sport) -> Int? {
    switch sport.profile?.scoring {
    case .points?: sport.rawValue.hasPrefix("football") ? 8 : 3
    case .sets?: nil
    default: 1
    }
  }

  /// The alert's text, in the sport's words: "GOAL Duke 5, North Carolina 4 · 2nd 04:06 · Smith
  /// (Jones)", "Kentucky 68, Michigan St. 63 · Final", "Top 5th: Indiana 1, North Carolina 0".
  static func text(_ event: ChangeEvent) -> String {
    if event.type == .rankingPublished {
      let first = event.details["first"].map { ": No. 1 \($0)" } ?? ""
      return "\(event.details["name"] ?? "The poll")\(first)"
    }
    let away = event.away?.name ?? "Away"
    let home = event.home?.name ?? "Home"
    let score = "\(away) \(event.awayScore ?? 0), \(home) \(event.homeScore ?? 0)"
    let when = [event.periodLabel, event.clock].compactMap { $0 }.joined(separator: " ")
    let runs = event.sport.profile?.scoring == .runs
    switch event.type {
    case .started: return "Underway: \(away) at \(home)"
    case .final: return "\(score) · Final"
    case .periodEnded:
      let period = event.periodLabel ?? event.period.flatMap { number in event.sport.profile?.periodLabel(number) }
      return "End of \(period ?? "the period"): \(score)"
    case .leadChange: return "Lead change: \(score)" + (when.isEmpty ? "" : " · \(when)")
    case .goal:
      var text = "GOAL \(score)" + (when.isEmpty ? "" : " · \(when)")
      if let player = event.player { text += " · \(player)" + (event.assist.map { " (\($0))" } ?? "") }
      return text
    default:
      if runs, let label = event.periodLabel { return "\(label): \(score)" }
      var text = score + (when.isEmpty ? "" : " · \(when)")
      if let player = event.player { text += " · \(player)" }
      return text
    }
  }

  /// The game's id as a collapse id: whole when it fits APNs' 64 bytes, else cut (and kept
  /// apart by a hash of the whole).
  static func collapseId(_ gameId: String) -> String {
    guard gameId.utf8.count > maximumCollapseBytes else { return gameId }
    let tail = "~" + String(ContentHash.fnv1a(Array(gameId.utf8)), radix: 16)
    return String(decoding: gameId.utf8.prefix(maximumCollapseBytes - tail.utf8.count), as: UTF8.self) + tail
  }

  /// Whether `time` falls in the quiet hours, in their time zone (a range past midnight wraps).
  static func inQuietHours(_ hours: Device.QuietHours, at time: Date) -> Bool {
    guard let zone = TimeZone(identifier: hours.timeZone), let start = Device.QuietHours.minutes(hours.start),
      let end = Device.QuietHours.minutes(hours.end), start != end
    else { return false }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.hour, .minute], from: time)
    let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    return start < end ? (start <= now && now < end) : (now >= start || now < end)
  }
}
