/// The API's endpoints under `/v1`.
enum Route: Equatable {
  case scoreboard
  case game(String)
  case boxScore(String)
  case plays(String)
  case changes
  case events
  case teams
  case team(String)
  case teamGames(String)
  case leaders
  case standings

  /// The path after `/v1`, each segment percent-decoded (`statbroadcast%3A640301` is an id).
  init?(_ segments: ArraySlice<String>) {
    switch Array(segments) {
    case ["scoreboard"]: self = .scoreboard
    case ["changes"]: self = .changes
    case ["events"]: self = .events
    case ["teams"]: self = .teams
    case ["leaders"]: self = .leaders
    case ["standings"]: self = .standings
    case let path where path.count == 2 && path[0] == "teams": self = .team(path[1])
    case let path where path.count == 3 && path[0] == "teams" && path[2] == "games": self = .teamGames(path[1])
    case let path where path.count == 2 && path[0] == "games": self = .game(path[1])
    case let path where path.count == 3 && path[0] == "games" && path[2] == "boxscore": self = .boxScore(path[1])
    case let path where path.count == 3 && path[0] == "games" && path[2] == "plays": self = .plays(path[1])
    default: return nil
    }
  }
}
