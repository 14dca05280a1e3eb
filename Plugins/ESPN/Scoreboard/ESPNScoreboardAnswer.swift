import StatlineCore

/// ESPN's site-API scoreboard (`site.api.espn.com/apis/site/v2/sports/{sport}/{league}/scoreboard`),
/// the same shape for every sport: only the fields Statline reads.
struct ESPNScoreboardAnswer: Decodable, Sendable {
  struct League: Decodable, Sendable {
    var slug: String?
    var name: String?
  }

  struct Event: Decodable, Sendable {
    var id: String
    var date: String?
    var competitions: [Competition]
    var status: Status?
  }

  struct Competition: Decodable, Sendable {
    var date: String?
    var attendance: Int?
    var neutralSite: Bool?
    var venue: Venue?
    var competitors: [Competitor]
    var status: Status?
  }

  struct Venue: Decodable, Sendable {
    struct Address: Decodable, Sendable {
      var city: String?
      var state: String?
      var country: String?
    }
    var fullName: String?
    var address: Address?
  }

  struct Competitor: Decodable, Sendable {
    struct Rank: Decodable, Sendable { var current: Int? }
    struct Record: Decodable, Sendable {
      var type: String?
      var summary: String?
    }
    struct LineScore: Decodable, Sendable {
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

  struct Team: Decodable, Sendable {
    var id: String?
    var displayName: String?
    var shortDisplayName: String?
    var abbreviation: String?
    var location: String?
  }

  struct Status: Decodable, Sendable {
    struct Kind: Decodable, Sendable {
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
