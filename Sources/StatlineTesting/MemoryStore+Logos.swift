import Foundation
import StatlineCore

extension MemoryStore: LogoStore {
  public func logoStates() async throws -> [LogoState] {
    logos.values.map(\.state).sorted { $0.teamId < $1.teamId }
  }

  public func saveLogo(_ state: LogoState, image: Data?) async throws {
    logos[state.teamId] = (state, image ?? logos[state.teamId]?.image)
  }

  public func teamLogo(teamId: String) async throws -> TeamLogo? {
    guard let stored = logos[teamId], let image = stored.image else { return nil }
    return stored.state.logo(bytes: image)
  }
}
