/// The API's endpoints under `/v1`.
enum Route: Equatable {
  case scoreboard
  case game(String)
  case boxScore(String)
  case boxScores
  case bundle
  case plays(String)
  case changes
  case events
  case teams
  case team(String)
  case teamGames(String)
  case leaders
  case standings
  case rankings
  case rankingPolls

  /// The path after `/v1`, each segment percent-decoded (`statbroadcast%3A640301` is an id).
  init?(_ segments: ArraySlice<String>) {
    switch Array(segments) {
    case ["scoreboard"]: self = .scoreboard
    case ["changes"]: self = .changes
    case ["boxscores"]: self = .boxScores
    case ["bundle"]: self = .bundle
    case ["events"]: self = .events
    case ["teams"]: self = .teams
    case ["leaders"]: self = .leaders
    case ["standings"]: self = .standings
    case ["rankings"]: self = .rankings
    case ["rankings", "polls"]: self = .rankingPolls
    case let path where path.count == 2 && path[0] == "teams": self = .team(path[1])
    case let path where path.count == 3 && path[0] == "teams" && path[2] == "games": self = .teamGames(path[1])
    case let path where path.count == 2 && path[0] == "games": self = .game(path[1])
    case let path where path.count == 3 && path[0] == "games" && path[2] == "boxscore": self = .boxScore(path[1])
    case let path where path.count == 3 && path[0] == "games" && path[2] == "plays": self = .plays(path[1])
    default: return nil
    }
  }
}

extension Route {
  /// The route's path template: the `route` label of the request metrics (bounded: ids are not
  /// labels).
  static func template(of path: String) -> String {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    switch segments {
    case []: return "/"
    case ["healthz"], ["readyz"], ["openapi.json"], ["metrics"]: return "/" + segments[0]
    case ["v1", "events", "stream"]: return "/v1/events/stream"
    case ["v1", "status"]: return "/v1/status"
    default: break
    }
    if ReadAPI.logoTeam(segments) != nil { return "/v1/teams/{id}/logo" }
    guard segments.first == "v1", let route = Route(segments.dropFirst()) else { return "unknown" }
    switch route {
    case .scoreboard: return "/v1/scoreboard"
    case .game: return "/v1/games/{id}"
    case .boxScore: return "/v1/games/{id}/boxscore"
    case .boxScores: return "/v1/boxscores"
    case .bundle: return "/v1/bundle"
    case .plays: return "/v1/games/{id}/plays"
    case .changes: return "/v1/changes"
    case .events: return "/v1/events"
    case .teams: return "/v1/teams"
    case .team: return "/v1/teams/{id}"
    case .teamGames: return "/v1/teams/{id}/games"
    case .leaders: return "/v1/leaders"
    case .standings: return "/v1/standings"
    case .rankings: return "/v1/rankings"
    case .rankingPolls: return "/v1/rankings/polls"
    }
  }
}
