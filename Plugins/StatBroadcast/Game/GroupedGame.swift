/// A StatCrew file whose stats come in named elements (`<stats tp= fgm=>` in basketball,
/// `<attack k= e=>` in volleyball, `<shots g= sh=>` in soccer), as the reader keeps it, its
/// attributes as written: every sport's file but lacrosse's (`LCGame`).
struct GroupedGame: Sendable, Equatable {
  /// The root element's name (`bbgame`, `wbbgame`).
  var root = ""
  var venue: [String: String] = [:]
  var rules: [String: String] = [:]
  /// `<venue><show>`: what the tool keeps (`fhk="1"`: field hockey).
  var show: [String: String]?
  var status: [String: String]?
  var teams: [GroupedTeam] = []
  var plays: [GroupedPlay] = []
}

struct GroupedTeam: Sendable, Equatable {
  /// `team` attributes: `vh`, `id`, `name`, `code`, `record`.
  var attributes: [String: String]
  /// `linescore` attributes: `line` (per period), `score`.
  var linescore: [String: String] = [:]
  /// Each period's line (`linegame` in volleyball, `lineprd` in soccer), as written.
  var periods: [[String: String]] = []
  /// The `totals` element's groups, each group's attributes under `group.attribute`.
  var totals: [String: String] = [:]
  var players: [GroupedPlayer] = []
}

struct GroupedPlayer: Sendable, Equatable {
  /// `player` attributes: `uni`, `name`, `checkname`, `gp`, `gs`, `pos`.
  var attributes: [String: String]
  /// The player's groups, as `GroupedTeam.totals`.
  var stats: [String: String] = [:]
}

struct GroupedPlay: Sendable, Equatable {
  /// The period (`<period number>`, or volleyball's set, `<game number>`) the play was in.
  var period: Int
  var attributes: [String: String]
}

/// How one sport's file names its elements.
struct GroupedLayout: Sendable {
  /// The root element.
  var root: String
  /// A period's line inside `linescore`.
  var line: String
  /// The element of `<plays>` that holds a period's plays.
  var playPeriod: String
  /// The stat groups of `totals` and `player`.
  var groups: Set<String>

  static let basketball = GroupedLayout(root: "bbgame", line: "lineprd", playPeriod: "period", groups: ["stats"])
  static let volleyball = GroupedLayout(
    root: "vbgame", line: "linegame", playPeriod: "game",
    groups: ["attack", "set", "serve", "defense", "block", "misc"])
  static let soccer = GroupedLayout(
    root: "sogame", line: "lineprd", playPeriod: "period", groups: ["shots", "goaltype", "penalty", "misc", "goalie"])
}
