import Foundation
import StatlineCore

/// Team logos (architecture.md#team-logos): one `team_logos` row per canonical team.
extension SQLiteStore: LogoStore {
  public func logoStates() throws -> [LogoState] {
    let statement = try connection.statement("SELECT state FROM team_logos ORDER BY team_id")
    defer { statement.reset() }
    var states: [LogoState] = []
    while try statement.step() {
      states.append(try LogoState(storedJSON: statement.text(0), location: connection.path))
    }
    return states
  }

  public func saveLogo(_ state: LogoState, image: Data?) throws {
    let json = try state.storedJSON()
    try connection.transaction { () throws(StatlineError) in
      try connection.statement(
        """
        INSERT INTO team_logos (team_id, state, image) VALUES (?1, ?2, ?3)
        ON CONFLICT (team_id) DO UPDATE SET state = ?2, image = COALESCE(?3, image)
        """
      ).bind(state.teamId, json, image).run()
    }
  }

  public func teamLogo(teamId: String) throws -> TeamLogo? {
    let statement = try connection.statement("SELECT state, image FROM team_logos WHERE team_id = ?").bind(teamId)
    defer { statement.reset() }
    guard try statement.step(), !statement.isNull(1) else { return nil }
    return try LogoState(storedJSON: statement.text(0), location: connection.path).logo(bytes: statement.data(1))
  }
}
