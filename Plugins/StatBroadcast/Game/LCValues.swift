import Foundation
import StatlineCore

/// Reading StatCrew attribute values: venues and team ids (numbers, dates and clocks: `GameText`).
enum LCValues {
  static func venue(_ venue: [String: String]) -> String? {
    let parts = [venue["stadium"], venue["location"]].compactMap { $0?.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// Team ids are the XML's short codes, which StatCrew truncates ("NORTH CA").
  static func teamId(_ team: LCTeam) -> String {
    "\(StatBroadcastSource.id):team-\(GameText.slug(team.attributes["id"] ?? team.attributes["name"] ?? ""))"
  }
}
