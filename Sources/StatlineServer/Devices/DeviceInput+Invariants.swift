import Foundation
import StatlineCanonical
import StatlineCore

extension DeviceInput {
  /// What must hold of any body `device(from:)` is given, whatever its bytes (the device API's
  /// fuzz target and its property test run it): a device it accepts is whole (its id made from
  /// its kind and token, a token of its kind's form, only canonical teams the registry knows,
  /// and it survives the store's JSON round trip unchanged); a body it refuses is a 400 naming
  /// a field, quoting at most a bounded part of what it was sent. Nil when all holds, else what broke.
  public static func broken(by body: Data, teams registry: TeamRegistry, at time: Date) -> String? {
    do {
      let device = try device(from: body, teams: registry, at: time)
      guard device.id == Device.id(kind: device.kind, token: device.token) else { return "the id is not the token's" }
      if device.kind != .fcm, device.token.count != 64 || !device.token.allSatisfy(\.isHexDigit) {
        return "an APNs token that is not 64 hex digits was taken"
      }
      for team in device.teams where registry.team(id: team) == nil {
        return "the team \(team.prefix(40)) is not a canonical team"
      }
      guard device.teams.count <= maximumTeams else { return "more than \(maximumTeams) teams were taken" }
      let encoded = try JSONEncoder().encode(device)
      guard try JSONDecoder().decode(Device.self, from: encoded) == device else {
        return "the JSON round trip changed it"
      }
      return nil
    } catch let problem as Problem {
      guard problem.status == 400 else { return "refused with \(problem.status), not 400" }
      guard problem.detail.utf8.count <= 2_000 else { return "the problem quotes \(problem.detail.utf8.count) bytes" }
      return nil
    } catch {
      return "threw \(error), not a problem"
    }
  }
}
