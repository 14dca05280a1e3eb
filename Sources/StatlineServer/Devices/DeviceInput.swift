import Foundation
import StatlineCanonical
import StatlineCore

/// A device as a client sends it (`POST /v1/devices`, `PUT /v1/devices/{id}`), checked field by
/// field: the first field that is wrong is a 400 problem naming it, and nothing is stored.
/// Teams are resolved by the registry (a canonical id, a source id, a school's name) and stored
/// as canonical ids.
public struct DeviceInput {
  /// The most a body may hold.
  public static let maximumBytes = 16 * 1024
  /// The most teams one device may follow.
  static let maximumTeams = 100

  static let fields: Set<String> = [
    "kind", "token", "tokenType", "environment", "topic", "teams", "gameId", "alerts", "quietHours",
  ]

  /// The device the body describes, registered (or changed) at `time`.
  public static func device(from body: Data, teams registry: TeamRegistry, at time: Date) throws(Problem) -> Device {
    guard let object = try? JSONSerialization.jsonObject(with: body), let fields = object as? [String: Any] else {
      throw invalid("the body", "is not a JSON object")
    }
    if let unknown = fields.keys.sorted().first(where: { !Self.fields.contains($0) }) {
      throw invalid(unknown, "is not a field of a device (\(Self.fields.sorted().joined(separator: ", ")))")
    }
    let kind = try choice("kind", fields["kind"], Device.Kind.self, required: true)!
    guard Device.Kind.registrable.contains(kind) else {
      throw invalid(
        "kind",
        "'\(kind.rawValue)' is made by Statline for a game's broadcast channel; register one of "
          + Device.Kind.registrable.map(\.rawValue).joined(separator: ", "))
    }
    let token = try token(fields["token"], kind: kind)
    let tokenType = try choice("tokenType", fields["tokenType"], Device.TokenType.self)
    if tokenType != nil, kind != .fcm {
      throw invalid("tokenType", "only an FCM device's token has a type (registration or installation)")
    }
    let environment = try choice("environment", fields["environment"], Device.Environment.self) ?? .production
    let topic = try string("topic", fields["topic"], required: true)!
    guard (1...255).contains(topic.utf8.count), ascii(topic, alsoAllowing: ".-") else {
      throw invalid("topic", "must be the app's bundle id (letters, digits, dots and dashes)")
    }
    let gameId = try string("gameId", fields["gameId"])
    if kind == .apnsLiveActivity {
      guard let gameId, gameId.hasPrefix(Game.canonicalPrefix) || gameId.contains(":") else {
        throw invalid("gameId", "a Live Activity follows one game: give its id (game:… or a source id)")
      }
    } else if gameId != nil {
      throw invalid("gameId", "only a Live Activity (apns-liveactivity) follows one game")
    }
    let stamp = Freshness.iso(time)
    return Device(
      id: Device.id(kind: kind, token: token), kind: kind, token: token, environment: environment, topic: topic,
      teams: try teams(fields["teams"], registry), gameId: gameId, alerts: try alerts(fields["alerts"]),
      quietHours: try quietHours(fields["quietHours"]), registeredAt: stamp, updatedAt: stamp,
      tokenType: kind == .fcm ? tokenType ?? .registration : nil)
  }

  /// The token as stored: an APNs token's 64 hex digits in lower case, an FCM token as sent.
  static func token(_ value: Any?, kind: Device.Kind) throws(Problem) -> String {
    let token = try string("token", value, required: true)!
    switch kind {
    case .apns, .apnsLiveActivity, .apnsChannel:
      guard token.utf8.count == 64, token.utf8.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit })
      else {
        throw invalid(
          "token",
          "must be 64 hex digits for \(kind.rawValue) (it is \(token.utf8.count) characters, ending \(Device.shown(token)))"
        )
      }
      return token.lowercased()
    case .fcm:
      guard (1...4096).contains(token.utf8.count), ascii(token, alsoAllowing: "-_:") else {
        throw invalid("token", "must be an FCM registration token (letters, digits, - _ :, at most 4096)")
      }
      return token
    }
  }

  /// The teams as canonical ids, each once, in the order given.
  static func teams(_ value: Any?, _ registry: TeamRegistry) throws(Problem) -> [String] {
    guard let value else { return [] }
    guard let list = value as? [Any] else { throw invalid("teams", "must be a list of team ids or names") }
    guard list.count <= maximumTeams else {
      throw invalid("teams", "lists \(list.count) teams (at most \(maximumTeams))")
    }
    var teams: [String] = []
    for (index, item) in list.enumerated() {
      guard let text = item as? String, !text.isEmpty, text.utf8.count <= 200 else {
        throw invalid("teams[\(index)]", "must be a team id or a school's name")
      }
      guard let team = resolve(text, registry) else {
        throw invalid(
          "teams[\(index)]",
          "'\(text)' is no team Statline knows (\(registry.unresolvedReason(SourceTeam(id: nil, name: text))))")
      }
      if !teams.contains(team) { teams.append(team) }
    }
    return teams
  }

  /// The alerts chosen, each once, in `Device.Alert`'s order; nil when none are given.
  static func alerts(_ value: Any?) throws(Problem) -> [Device.Alert]? {
    guard let value else { return nil }
    guard let list = value as? [Any] else { throw invalid("alerts", "must be a list of alert kinds") }
    var chosen: Set<Device.Alert> = []
    for (index, item) in list.enumerated() {
      guard let text = item as? String, let alert = Device.Alert(rawValue: text) else {
        throw invalid(
          "alerts[\(index)]", "is not an alert kind (\(Device.Alert.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      chosen.insert(alert)
    }
    return chosen.sorted()
  }

  static func quietHours(_ value: Any?) throws(Problem) -> Device.QuietHours? {
    guard let value else { return nil }
    guard let hours = value as? [String: Any], Set(hours.keys).isSubset(of: ["start", "end", "timeZone"]) else {
      throw invalid("quietHours", "must be {start, end, timeZone}")
    }
    let start = try string("quietHours.start", hours["start"], required: true)!
    let end = try string("quietHours.end", hours["end"], required: true)!
    let zone = try string("quietHours.timeZone", hours["timeZone"], required: true)!
    for (name, text) in [("quietHours.start", start), ("quietHours.end", end)]
    where Device.QuietHours.minutes(text) == nil {
      throw invalid(name, "'\(text.prefix(20))' is not a time of day (HH:MM, 24-hour)")
    }
    guard TimeZone(identifier: zone) != nil else {
      throw invalid("quietHours.timeZone", "'\(zone.prefix(60))' is not a time zone (an IANA name: America/New_York)")
    }
    return Device.QuietHours(start: start, end: end, timeZone: zone)
  }

  /// ASCII letters and digits, and the bytes of `extra`.
  static func ascii(_ text: String, alsoAllowing extra: String) -> Bool {
    let allowed = Set(extra.utf8)
    return text.utf8.allSatisfy { byte in
      byte < 0x80
        && (Character(UnicodeScalar(byte)).isLetter || Character(UnicodeScalar(byte)).isNumber
          || allowed.contains(byte))
    }
  }

  /// The canonical id of a team as a client names it.
  static func resolve(_ text: String, _ registry: TeamRegistry) -> String? {
    if let team = registry.team(id: text) { return team.id }
    let source = text.contains(":") ? SourceTeam(id: text, name: text) : SourceTeam(id: nil, name: text)
    return registry.resolve(source)?.team.id
  }

  static func invalid(_ field: String, _ reason: String) -> Problem {
    Problem(title: "Bad device", status: 400, detail: "\(field) \(reason)")
  }

  static func string(_ field: String, _ value: Any?, required: Bool = false) throws(Problem) -> String? {
    guard let value, !(value is NSNull) else {
      if required { throw invalid(field, "is missing") }
      return nil
    }
    guard let text = value as? String, !text.isEmpty else { throw invalid(field, "must be a non-empty string") }
    return text
  }

  static func choice<Value: RawRepresentable & CaseIterable>(
    _ field: String, _ value: Any?, _ type: Value.Type, required: Bool = false
  ) throws(Problem) -> Value? where Value.RawValue == String {
    guard let text = try string(field, value, required: required) else { return nil }
    guard let chosen = Value(rawValue: text) else {
      throw invalid(
        field, "'\(text.prefix(40))' is not one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return chosen
  }
}
