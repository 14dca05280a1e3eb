/// A StatCrew / TAS / PrestoSports lacrosse game (`<lcgame>`), as the XML has it: attribute
/// values as strings, nothing interpreted yet.
struct LCGame: Sendable, Equatable {
  /// `venue` attributes (`sbid`, `date`, `start`, `stadium`, `location`, `attend`, `neutralgame`…).
  var venue: [String: String]
  /// `rules` attributes (`prds`, `minutes`, `minutesot`).
  var rules: [String: String]
  /// `show` flags: `faceoffs="1"` for men's games, `dcs="1"` for women's.
  var show: [String: String]
  /// `status` attributes (`period`, `clock`, `complete`); nil when the element is missing.
  var status: [String: String]?
  var teams: [LCTeam]
  var plays: [LCPlay]
}

struct LCTeam: Sendable, Equatable {
  /// `team` attributes: `vh`, `id`, `name`, `code`, `record`, `rank`.
  var attributes: [String: String]
  /// `linescore` attributes (`score`, `line`).
  var linescore: [String: String]
  /// `lineprd` scores by period number.
  var periods: [(period: Int, score: String)]
  /// The `totals` stat groups: element name → attributes.
  var totals: [String: [String: String]]
  var players: [LCPlayer]

  static func == (lhs: LCTeam, rhs: LCTeam) -> Bool {
    lhs.attributes == rhs.attributes && lhs.linescore == rhs.linescore
      && lhs.periods.map(\.period) == rhs.periods.map(\.period) && lhs.periods.map(\.score) == rhs.periods.map(\.score)
      && lhs.totals == rhs.totals && lhs.players == rhs.players
  }
}

struct LCPlayer: Sendable, Equatable {
  /// `player` attributes: `uni`, `name`, `gp`, `gs`, `pos`.
  var attributes: [String: String]
  /// Stat groups (`shots`, `goaltype`, `penalty`, `misc`, `goalie`, `clear`), empty for a player
  /// who did not play.
  var stats: [String: [String: String]]
}

struct LCPlay: Sendable, Equatable {
  var period: Int
  /// `play` attributes: `number`, `vh`, `team`, `clock`, `action`, `text`.
  var attributes: [String: String]
  /// The `currentscore` that follows a goal (visitor, home).
  var score: (visitor: String, home: String)?

  static func == (lhs: LCPlay, rhs: LCPlay) -> Bool {
    lhs.period == rhs.period && lhs.attributes == rhs.attributes && lhs.score?.visitor == rhs.score?.visitor
      && lhs.score?.home == rhs.score?.home
  }
}
