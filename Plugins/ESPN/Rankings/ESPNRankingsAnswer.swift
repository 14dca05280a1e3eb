import StatlineCore

/// ESPN's rankings answers, as far as Statline reads them. Three shapes carry the same polls:
/// the site API (`…/apis/site/v2/sports/{sport}/{league}/rankings`: `rankings`, teams inline),
/// one week of one poll from the core API (`…/v2/sports/{sport}/leagues/{league}/seasons/{year}/
/// types/{type}/weeks/{week}/rankings/{id}`: `ranks` at the top, teams as `$ref`), and a listing
/// of a week's polls with the polls and a teams list beside it (`listing`, `polls`, `teams`).
struct ESPNRankingsAnswer {
  var rankings: [Poll]?
  var polls: [String: Poll]?
  var listing: Listing?
  var teams: TeamsList?
  /// The answer itself, when it is one poll (the core API's week).
  var single: Poll?

  struct Poll {
    var name: String?
    var shortName: String?
    var type: String?
    var occurrence: Occurrence?
    var season: Season?
    var ranks: [Rank]?
    var others: [Rank]?
    var ref: String?
  }

  struct Occurrence {
    var number: Int?
    var type: String?
    var displayValue: String?
  }

  /// The site API's `{year, type}`, or the core API's `{$ref}`.
  struct Season {
    var year: Int?
    var type: Int?
    var ref: String?
  }

  struct Rank {
    var current: Int?
    var previous: Int?
    var points: Double?
    var firstPlaceVotes: Int?
    var trend: String?
    var record: Record?
    var recordSummary: String?
    var team: TeamLink?
  }

  struct Record {
    var summary: String?
  }

  /// A team inline (site API) or by reference (core API).
  struct TeamLink {
    var id: String?
    var displayName: String?
    var location: String?
    var nickname: String?
    var name: String?
    var abbreviation: String?
    var ref: String?
  }

  struct Listing {
    var items: [Item]?

    struct Item {
      var ref: String?
    }
  }

  /// A site-API teams list: `sports[].leagues[].teams[].team`.
  struct TeamsList {
    var sports: [SportEntry]?

    struct SportEntry { var leagues: [League]? }
    struct League { var teams: [Entry]? }
    struct Entry { var team: TeamLink? }

    var all: [TeamLink] { (sports ?? []).flatMap { $0.leagues ?? [] }.flatMap { $0.teams ?? [] }.compactMap(\.team) }
  }
}

// MARK: - Reading the answer

extension ESPNRankingsAnswer: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    rankings = try json.optional("rankings")
    polls = try json.optional("polls")
    listing = try json.optional("listing")
    teams = try json.optional("teams")
    single = json["ranks"] != nil ? try Poll(json: json) : nil
  }
}

extension ESPNRankingsAnswer.Poll: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    name = try json.optional("name")
    shortName = try json.optional("shortName")
    type = try json.optional("type")
    occurrence = try json.optional("occurrence")
    season = try json.optional("season")
    ranks = try json.optional("ranks")
    others = try json.optional("others")
    ref = try json.optional("$ref")
  }
}

extension ESPNRankingsAnswer.Occurrence: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    number = try json.optional("number")
    type = try json.optional("type")
    displayValue = try json.optional("displayValue")
  }
}

extension ESPNRankingsAnswer.Season: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    year = try json.optional("year")
    type = try json.optional("type")
    ref = try json.optional("$ref")
  }
}

extension ESPNRankingsAnswer.Rank: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    current = try json.optional("current")
    previous = try json.optional("previous")
    points = try json.optional("points")
    firstPlaceVotes = try json.optional("firstPlaceVotes")
    trend = try json.optional("trend")
    record = try json.optional("record")
    recordSummary = try json.optional("recordSummary")
    team = try json.optional("team")
  }
}

extension ESPNRankingsAnswer.Record: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    summary = try json.optional("summary")
  }
}

extension ESPNRankingsAnswer.TeamLink: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    id = try json.optional("id")
    displayName = try json.optional("displayName")
    location = try json.optional("location")
    nickname = try json.optional("nickname")
    name = try json.optional("name")
    abbreviation = try json.optional("abbreviation")
    ref = try json.optional("$ref")
  }
}

extension ESPNRankingsAnswer.Listing: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    items = try json.optional("items")
  }
}

extension ESPNRankingsAnswer.Listing.Item: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    ref = try json.optional("$ref")
  }
}

extension ESPNRankingsAnswer.TeamsList: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    sports = try json.optional("sports")
  }
}

extension ESPNRankingsAnswer.TeamsList.SportEntry: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    leagues = try json.optional("leagues")
  }
}

extension ESPNRankingsAnswer.TeamsList.League: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    teams = try json.optional("teams")
  }
}

extension ESPNRankingsAnswer.TeamsList.Entry: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    team = try json.optional("team")
  }
}
