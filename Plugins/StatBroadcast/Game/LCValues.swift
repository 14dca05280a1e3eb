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
  static func teamId(_ team: LCTeam) -> String { teamId(attributes: team.attributes) }

  static func teamId(attributes: [String: String]) -> String {
    "\(StatBroadcastSource.id):team-\(GameText.slug(attributes["id"] ?? attributes["name"] ?? ""))"
  }

  /// `<team code="457">` is the school's NCAA org id (STRUCTURE.md); a code that is not a
  /// number, or none (some files leave it empty), is no id.
  static func orgId(_ team: LCTeam) -> String? { orgId(attributes: team.attributes) }

  static func orgId(attributes: [String: String]) -> String? {
    guard let code = attributes["code"]?.trimmingCharacters(in: .whitespaces), !code.isEmpty,
      code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber)
    else { return nil }
    return code
  }
}
