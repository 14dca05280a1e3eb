/// A StatCrew volleyball file (`<vbgame>`) as the reader keeps it: the elements Statline reads,
/// their attributes as written.
struct VBGame: Sendable, Equatable {
  var venue: [String: String] = [:]
  var status: [String: String]?
  var teams: [VBTeam] = []
  var plays: [VBPlay] = []
}

struct VBTeam: Sendable, Equatable {
  /// `team` attributes: `vh`, `id`, `name`, `code`, `record`.
  var attributes: [String: String]
  /// `linescore` attributes: `line` (points per set), `score` (sets won).
  var linescore: [String: String] = [:]
  /// Points per set, from the `linegame` elements.
  var sets: [LCPeriodScore] = []
  /// The `totals` element's groups (`attack`, `set`, `serve`, `defense`, `block`, `misc`), each
  /// group's attributes under `group.attribute`.
  var totals: [String: String] = [:]
  var players: [VBPlayer] = []
}

struct VBPlayer: Sendable, Equatable {
  /// `player` attributes: `uni`, `name`, `checkname`, `gp` (sets played), `libero`.
  var attributes: [String: String]
  /// The player's groups, as `VBTeam.totals`.
  var stats: [String: String] = [:]
}

struct VBPlay: Sendable, Equatable {
  /// The set (`<game number>`) the rally was in.
  var set: Int
  /// `number`, `serveteam`, `point` (the team id that won the rally), `vscore`, `hscore` (the
  /// set's running points), `text`.
  var attributes: [String: String]
}
