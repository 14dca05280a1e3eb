import StatlineCore

/// ESPN's site-API scoreboard (`site.api.espn.com/apis/site/v2/sports/{sport}/{league}/scoreboard`),
/// the same shape for every sport: only the fields Statline reads.
struct ESPNScoreboardAnswer: Sendable {
  struct League: Sendable {
    var slug: String?
    var name: String?
  }

  struct Event: Sendable {
    var id: String
    var date: String?
    var competitions: [Competition]
    var status: Status?
  }

  struct Competition: Sendable {
    var date: String?
    var attendance: Int?
    var neutralSite: Bool?
    var venue: Venue?
    var competitors: [Competitor]
    var status: Status?
  }

  struct Venue: Sendable {
    struct Address: Sendable {
      var city: String?
      var state: String?
      var country: String?
    }
    var fullName: String?
    var address: Address?
  }

  struct Competitor: Sendable {
    struct Rank: Sendable { var current: Int? }
    struct Record: Sendable {
      var type: String?
      var summary: String?
    }
    struct LineScore: Sendable {
      var value: Double?
      var period: Int?
    }
    var homeAway: String
    var score: JSONScalar?
    var winner: Bool?
    var linescores: [LineScore]?
    var curatedRank: Rank?
    var records: [Record]?
    var team: Team
  }

  struct Team: Sendable {
    var id: String?
    var displayName: String?
    var shortDisplayName: String?
    var abbreviation: String?
    var location: String?
    /// The team's logo image (`https://a.espncdn.com/i/teamlogos/…`).
    var logo: String?
  }

  struct Status: Sendable {
    struct Kind: Sendable {
      var name: String?
      var state: String?
      var completed: Bool?
      var detail: String?
      var shortDetail: String?
    }
    var displayClock: String?
    var period: Int?
    var type: Kind
  }

  var leagues: [League]?
  var events: [Event]
}

// MARK: - Reading the answer

extension ESPNScoreboardAnswer: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    leagues = try json.optional("leagues")
    events = try json.required("events")
  }
}

extension ESPNScoreboardAnswer.League: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    slug = try json.optional("slug")
    name = try json.optional("name")
  }
}

extension ESPNScoreboardAnswer.Event: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    id = try json.required("id")
    date = try json.optional("date")
    competitions = try json.required("competitions")
    status = try json.optional("status")
  }
}

extension ESPNScoreboardAnswer.Competition: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    date = try json.optional("date")
    attendance = try json.optional("attendance")
    neutralSite = try json.optional("neutralSite")
    venue = try json.optional("venue")
    competitors = try json.required("competitors")
    status = try json.optional("status")
  }
}

extension ESPNScoreboardAnswer.Venue: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    fullName = try json.optional("fullName")
    address = try json.optional("address")
  }
}

extension ESPNScoreboardAnswer.Venue.Address: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    city = try json.optional("city")
    state = try json.optional("state")
    country = try json.optional("country")
  }
}

extension ESPNScoreboardAnswer.Competitor: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    homeAway = try json.required("homeAway")
    score = try json.optional("score")
    winner = try json.optional("winner")
    linescores = try json.optional("linescores")
    curatedRank = try json.optional("curatedRank")
    records = try json.optional("records")
    team = try json.required("team")
  }
}

extension ESPNScoreboardAnswer.Competitor.Rank: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    current = try json.optional("current")
  }
}

extension ESPNScoreboardAnswer.Competitor.Record: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    type = try json.optional("type")
    summary = try json.optional("summary")
  }
}

extension ESPNScoreboardAnswer.Competitor.LineScore: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    value = try json.optional("value")
    period = try json.optional("period")
  }
}

extension ESPNScoreboardAnswer.Team: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    id = try json.optional("id")
    displayName = try json.optional("displayName")
    shortDisplayName = try json.optional("shortDisplayName")
    abbreviation = try json.optional("abbreviation")
    location = try json.optional("location")
    logo = try json.optional("logo")
  }
}

extension ESPNScoreboardAnswer.Status: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    displayClock = try json.optional("displayClock")
    period = try json.optional("period")
    type = try json.required("type")
  }
}

extension ESPNScoreboardAnswer.Status.Kind: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    name = try json.optional("name")
    state = try json.optional("state")
    completed = try json.optional("completed")
    detail = try json.optional("detail")
    shortDetail = try json.optional("shortDetail")
  }
}
