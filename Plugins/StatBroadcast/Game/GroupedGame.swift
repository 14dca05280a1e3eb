import Foundation
import StatlineCore

/// A StatCrew file whose stats come in named elements (`<stats tp= fgm=>` in basketball,
/// `<attack k= e=>` in volleyball, `<shots g= sh=>` in soccer), as the reader keeps it, its
/// attributes as written: every sport's file but lacrosse's (`LCGame`).
struct GroupedGame: Sendable, Equatable {
  /// The root element's name (`bbgame`, `wbbgame`) and its attributes (some writers put
  /// `sportcode="MBB"` there).
  var root = ""
  var rootAttributes: [String: String] = [:]
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
  /// The play's attributes; baseball's also `vh` (its half-inning's) and `text` (its
  /// `<narrative text>`).
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
  /// The element inside a period that holds one side's plays (baseball's `<batting vh>`): its
  /// `vh` is given to each of its plays.
  var half: String? = nil

  static let basketball = GroupedLayout(root: "bbgame", line: "lineprd", playPeriod: "period", groups: ["stats"])
  static let football = GroupedLayout(
    root: "fbgame", line: "lineprd", playPeriod: "qtr",
    groups: ["rush", "pass", "rcv", "punt", "ko", "fg", "pat", "defense", "kr", "pr", "ir", "fr", "fumbles", "scoring"])
  static let baseball = GroupedLayout(
    root: "bsgame", line: "lineinn", playPeriod: "inning", groups: ["hitting", "fielding", "pitching"],
    half: "batting")
  static let volleyball = GroupedLayout(
    root: "vbgame", line: "linegame", playPeriod: "game",
    groups: ["attack", "set", "serve", "defense", "block", "misc"])
  static let soccer = GroupedLayout(
    root: "sogame", line: "lineprd", playPeriod: "period", groups: ["shots", "goaltype", "penalty", "misc", "goalie"])
}

extension GroupedTeam {
  /// The team's line: its score (`linescore`'s `total`), and each period's from the period lines
  /// (`period`, `score` attributes), else from the `line` attribute (an unplayed `X` left out);
  /// the abbreviation is the team id, trimmed (the In-Arena Utility writes `DU `).
  func line(period: String = "prd", score: String = "score", total: String = "score") throws(StatlineError)
    -> TeamLine
  {
    guard let name = attributes["name"], !name.isEmpty else {
      throw StatlineError(.wrongPage, "a <team> has no name")
    }
    var periods = self.periods.sorted { GameText.int($0[period]) ?? 0 < GameText.int($1[period]) ?? 0 }
      .compactMap { GameText.int($0[score]) }
    if periods.count != self.periods.count || periods.isEmpty {
      periods = (linescore["line"] ?? "").split(separator: ",").compactMap { GameText.int(String($0)) }
    }
    return TeamLine(
      team: TeamRef(
        id: LCValues.teamId(attributes: attributes), name: name,
        abbreviation: attributes["id"]?.trimmingCharacters(in: .whitespaces)),
      score: GameText.int(linescore[total]), periodScores: periods,
      record: attributes["record"].flatMap { $0.isEmpty ? nil : $0 }, rank: GameText.int(attributes["rank"]))
  }
}

extension GroupedTeam {
  /// The players who played (`gp` above 0; a player the file gives no `gp` only when
  /// `unlistedPlayed`), the `TEAM` row (`uni="TM"`: the team's own numbers) left out.
  func playersWhoPlayed(unlistedPlayed: Bool = false) -> [GroupedPlayer] {
    players.filter { player in
      player.attributes["uni"]?.uppercased() != "TM" && player.attributes["name"]?.uppercased() != "TEAM"
        && GameText.int(player.attributes["gp"]) ?? (unlistedPlayed ? 1 : 0) > 0
    }
  }

  /// The team's record in `sport`, its NCAA org id from `code`.
  func team(sport: Sport) -> Team {
    Team(
      id: LCValues.teamId(attributes: attributes), name: attributes["name"] ?? "",
      abbreviation: attributes["id"]?.trimmingCharacters(in: .whitespaces), sport: sport,
      ncaaOrgId: LCValues.orgId(attributes: attributes))
  }
}

/// Players as a play's text writes them ("Last, First", "Last First", "LAST,FIRST") → as the
/// roster's `name` gives them, normalized: the key is the name's letters alone.
struct GroupedRoster: Sendable {
  private var names: [String: String] = [:]

  init(_ teams: [GroupedTeam]) {
    for player in teams.flatMap(\.players) {
      guard let name = player.attributes["name"] else { continue }
      names[Self.key(name)] = PersonName.normalized(name)
    }
  }

  /// The letters of a name, lower-cased: `O'Neill, Brennan` and `ONEILL,BRENNAN` are one key.
  /// ASCII names (nearly all) byte by byte; others by their characters.
  static func key(_ name: some StringProtocol) -> String {
    let utf8 = name.utf8
    guard utf8.allSatisfy({ $0 < 0x80 }) else { return String(name.lowercased().filter(\.isLetter)) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count)
    for byte in utf8 {
      switch byte {
      case 0x61...0x7A: bytes.append(byte)
      case 0x41...0x5A: bytes.append(byte + 0x20)
      default: continue
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The roster's name for `written`, else `written` normalized.
  func name(_ written: String) -> String { names[Self.key(written)] ?? PersonName.normalized(written) }
}
