import Foundation
import NIOCore
import PostgresNIO
import StatlineCore

/// Team logos (architecture.md#team-logos): one `team_logos` row per canonical team.
extension PostgresStore: LogoStore {
  public func logoStates() async throws -> [LogoState] {
    let texts = try await perform("cannot read the logo states") { connection in
      var texts: [String] = []
      for try await text in try await connection.query(
        "SELECT state::text FROM team_logos ORDER BY team_id", logger: logger
      ).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
    return try texts.map { text throws(StatlineError) in try LogoState(storedJSON: text, location: "team_logos") }
  }

  public func saveLogo(_ state: LogoState, image: Data?) async throws {
    let json = try state.storedJSON()
    let bytes = image.map { ByteBuffer(bytes: $0) }
    let teamId = state.teamId
    try await perform("cannot save the logo of \(teamId)") { connection in
      try await connection.query(
        """
        INSERT INTO team_logos (team_id, state, image) VALUES (\(teamId), \(json)::jsonb, \(bytes))
        ON CONFLICT (team_id) DO UPDATE SET state = EXCLUDED.state, image = COALESCE(EXCLUDED.image, team_logos.image)
        """, logger: logger)
    }
  }

  public func teamLogo(teamId: String) async throws -> TeamLogo? {
    let row = try await perform("cannot read the logo of \(teamId)") { connection in
      try await connection.query(
        "SELECT state::text, image FROM team_logos WHERE team_id = \(teamId) AND image IS NOT NULL", logger: logger
      ).collect().first?.decode((String, ByteBuffer).self)
    }
    guard let (text, image) = row else { return nil }
    return try LogoState(storedJSON: text, location: "team_logos").logo(bytes: Data(buffer: image))
  }
}
