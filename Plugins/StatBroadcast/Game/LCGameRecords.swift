/// A StatCrew / TAS / PrestoSports lacrosse game (`<lcgame>`), as the XML has it: attribute
/// values as strings, except the stat groups, which are read straight into numbers.
struct LCGame: Sendable, Equatable {
  /// `venue` attributes (`sbid`, `date`, `start`, `stadium`, `location`, `attend`, `neutralgame`…).
  var venue: [String: String] = [:]
  /// `rules` attributes (`prds`, `minutes`, `minutesot`).
  var rules: [String: String] = [:]
  /// `show` flags: `faceoffs="1"` for men's games, `dcs="1"` for women's.
  var show: [String: String] = [:]
  /// `status` attributes (`period`, `clock`, `complete`); nil when the element is missing.
  var status: [String: String]?
  var teams: [LCTeam] = []
  var plays: [LCPlay] = []
}

struct LCTeam: Sendable, Equatable {
  /// `team` attributes: `vh`, `id`, `name`, `code`, `record`, `rank`.
  var attributes: [String: String]
  /// `linescore` attributes (`score`, `line`).
  var linescore: [String: String] = [:]
  /// `lineprd` scores by period number.
  var periods: [LCPeriodScore] = []
  /// The `totals` stat groups.
  var totals = LCStats()
  var players: [LCPlayer] = []
}

struct LCPeriodScore: Sendable, Equatable {
  var period: Int
  var score: String
}

struct LCPlayer: Sendable, Equatable {
  /// `name`, as written ("Last, First" or "First Last").
  var name: String
  /// `uni`, `gp`, `gs`, `pos`.
  var number: String?
  var gamesPlayed: String?
  var gamesStarted: String?
  var position: String?
  /// Empty (no stat group) for a player who did not play.
  var stats = LCStats()
}

/// The StatCrew stat attributes Statline reads (architecture.md#the-contract), by stat group.
enum LCStat: Int, CaseIterable, Sendable {
  case goals, assists, shots, shotsOnGoal, freePositionAttempts, freePositionShots
  case freePositionGoals
  case groundBalls, turnovers, causedTurnovers, drawControls, faceoffsWon, faceoffsLost
  case penalties, penaltySeconds
  case saves, goalsAllowed, goalieSeconds
  case clearsMade, clearsAttempted
}

/// The numbers of a player's or a team's stat groups (`shots`, `goaltype`, `penalty`, `misc`,
/// `goalie`, `clear`): only the attributes of `LCStat`, nil where the XML has none.
struct LCStats: Sendable, Equatable {
  private var values = [Int?](repeating: nil, count: LCStat.allCases.count)
  /// How many stat group elements the XML had (any name): none means the player did not play.
  var groups = 0

  subscript(stat: LCStat) -> Int? {
    get { values[stat.rawValue] }
    set { values[stat.rawValue] = newValue }
  }
}

struct LCPlay: Sendable, Equatable {
  var period: Int
  /// `vh`: "V" or "H".
  var side: String?
  /// `team`, `clock`, `action`, `text`.
  var team: String?
  var clock: String?
  var action: String
  var text: String
  /// The `currentscore` that follows a goal (visitor, home), when both are numbers.
  var score: LCScore?
}

struct LCScore: Sendable, Equatable {
  var visitor: Int
  var home: Int
}
