/// A team as a team list or schedule page describes it.
public struct Team: Codable, Sendable, Equatable {
  public var id: String
  public var name: String
  public var abbreviation: String?
  public var conference: String?
  public var sport: Sport?

  public init(
    id: String, name: String, abbreviation: String? = nil, conference: String? = nil,
    sport: Sport? = nil
  ) {
    self.id = id
    self.name = name
    self.abbreviation = abbreviation
    self.conference = conference
    self.sport = sport
  }

  enum CodingKeys: String, CodingKey { case id, name, abbreviation, conference, sport }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(abbreviation, forKey: .abbreviation)
    try c.encode(conference, forKey: .conference)
    try c.encode(sport, forKey: .sport)
  }
}
