/// A StatCrew basketball file (`<bbgame>`) as the reader keeps it: the elements Statline reads,
/// their attributes as written.
struct BBGame: Sendable, Equatable {
  var root = "bbgame"
  var venue: [String: String] = [:]
  var rules: [String: String] = [:]
  var status: [String: String]?
  var teams: [BBTeam] = []
  var plays: [BBPlay] = []
}

struct BBTeam: Sendable, Equatable {
  /// `team` attributes: `vh`, `id`, `name`, `code`, `record`.
  var attributes: [String: String]
  var linescore: [String: String] = [:]
  var periods: [LCPeriodScore] = []
  /// The `totals` element's `stats` attributes.
  var totals: [String: String] = [:]
  var players: [BBPlayer] = []
}

struct BBPlayer: Sendable, Equatable {
  /// `player` attributes: `uni`, `name`, `gp`, `gs`, `pos`.
  var attributes: [String: String]
  /// The player's own `stats` element (not `statsbyprd`, not `season`).
  var stats: [String: String] = [:]
}

struct BBPlay: Sendable, Equatable {
  var period: Int
  /// `vh`, `team`, `time`, `uni`, `checkname`, `action`, `type`, `vscore`, `hscore`.
  var attributes: [String: String]
}
