/// ESPN's rankings answers, as far as Statline reads them. Three shapes carry the same polls:
/// the site API (`…/apis/site/v2/sports/{sport}/{league}/rankings`: `rankings`, teams inline),
/// one week of one poll from the core API (`…/v2/sports/{sport}/leagues/{league}/seasons/{year}/
/// types/{type}/weeks/{week}/rankings/{id}`: `ranks` at the top, teams as `$ref`), and a listing
/// of a week's polls with the polls and a teams list beside it (`listing`, `polls`, `teams`).
struct ESPNRankingsAnswer: Decodable {
  var rankings: [Poll]?
  var polls: [String: Poll]?
  var listing: Listing?
  var teams: TeamsList?
  /// The answer itself, when it is one poll (the core API's week).
  var single: Poll?

  enum CodingKeys: String, CodingKey { case rankings, polls, listing, teams, ranks }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    rankings = try container.decodeIfPresent([Poll].self, forKey: .rankings)
    polls = try container.decodeIfPresent([String: Poll].self, forKey: .polls)
    listing = try container.decodeIfPresent(Listing.self, forKey: .listing)
    teams = try container.decodeIfPresent(TeamsList.self, forKey: .teams)
    single = container.contains(.ranks) ? try Poll(from: decoder) : nil
  }

  struct Poll: Decodable {
    var name: String?
    var shortName: String?
    var type: String?
    var occurrence: Occurrence?
    var season: Season?
    var ranks: [Rank]?
    var others: [Rank]?
    var ref: String?

    enum CodingKeys: String, CodingKey {
      case name, shortName, type, occurrence, season, ranks, others
      case ref = "$ref"
    }
  }

  struct Occurrence: Decodable {
    var number: Int?
    var type: String?
    var displayValue: String?
  }

  /// The site API's `{year, type}`, or the core API's `{$ref}`.
  struct Season: Decodable {
    var year: Int?
    var type: Int?
    var ref: String?

    enum CodingKeys: String, CodingKey {
      case year, type
      case ref = "$ref"
    }
  }

  struct Rank: Decodable {
    var current: Int?
    var previous: Int?
    var points: Double?
    var firstPlaceVotes: Int?
    var trend: String?
    var record: Record?
    var recordSummary: String?
    var team: TeamLink?
  }

  struct Record: Decodable {
    var summary: String?
  }

  /// A team inline (site API) or by reference (core API).
  struct TeamLink: Decodable {
    var id: String?
    var displayName: String?
    var location: String?
    var nickname: String?
    var name: String?
    var abbreviation: String?
    var ref: String?

    enum CodingKeys: String, CodingKey {
      case id, displayName, location, nickname, name, abbreviation
      case ref = "$ref"
    }
  }

  struct Listing: Decodable {
    var items: [Item]?

    struct Item: Decodable {
      var ref: String?
      enum CodingKeys: String, CodingKey { case ref = "$ref" }
    }
  }

  /// A site-API teams list: `sports[].leagues[].teams[].team`.
  struct TeamsList: Decodable {
    var sports: [SportEntry]?

    struct SportEntry: Decodable { var leagues: [League]? }
    struct League: Decodable { var teams: [Entry]? }
    struct Entry: Decodable { var team: TeamLink? }

    var all: [TeamLink] { (sports ?? []).flatMap { $0.leagues ?? [] }.flatMap { $0.teams ?? [] }.compactMap(\.team) }
  }
}
