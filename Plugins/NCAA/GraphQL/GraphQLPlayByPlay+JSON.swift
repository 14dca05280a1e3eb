import Foundation
import StatlineCore

// Reading the answer: each record of `data.playbyplay` read in one pass over its members.

extension GraphQLPlayByPlay: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    contestId = try json.required("contestId")
    title = try json.optional("title")
    status = try json.optional("status")
    period = try json.optional("period")
    minutes = try json.optional("minutes")
    seconds = try json.optional("seconds")
    teams = try json.required("teams")
    periods = try json.required("periods")
  }
}

extension GraphQLPlayByPlay.Team: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    isHome = try json.required("isHome")
    teamId = try json.required("teamId")
    seoname = try json.optional("seoname")
    name6Char = try json.optional("name6Char")
    nameShort = try json.optional("nameShort")
    nameFull = try json.optional("nameFull")
  }
}

extension GraphQLPlayByPlay.Period: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    periodNumber = try json.required("periodNumber")
    periodDisplay = try json.optional("periodDisplay")
    playbyplayStats = try json.required("playbyplayStats")
  }
}

extension GraphQLPlayByPlay.Entry: JSONReadable {
  /// In one pass over the entry's members (`forEachMember`): a search per field looked at 33
  /// members of a lacrosse entry, whose basketball fields are all missing. A repeated key: the
  /// first wins (`seen`), as `optional` reads it.
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    var clock: String?
    var teamId: Flexible?
    var plays: [GraphQLPlayByPlay.Item]?
    var visitorText: String?
    var homeText: String?
    var eventDescription: String?
    var homeScore: Int?
    var visitorScore: Int?
    var score: String?
    var seen: UInt16 = 0
    try json.forEachMember { key, value throws(JSONShapeError) in
      // The field's bit, when the key is one of the entry's and not seen before.
      let bit: UInt16 =
        switch key.count {
        case 5: key.is("clock") ? 1 : key.is("plays") ? 4 : key.is("score") ? 256 : 0
        case 6: key.is("teamId") ? 2 : 0
        case 8: key.is("homeText") ? 16 : 0
        case 9: key.is("homeScore") ? 64 : 0
        case 11: key.is("visitorText") ? 8 : 0
        case 12: key.is("visitorScore") ? 128 : 0
        case 16: key.is("eventDescription") ? 32 : 0
        default: 0
        }
      guard bit != 0, seen & bit == 0 else { return }
      seen |= bit
      switch bit {
      case 1: clock = try value.optionalValue()
      case 2: teamId = try value.optionalValue()
      case 4: plays = try value.optionalValue()
      case 8: visitorText = try value.optionalValue()
      case 16: homeText = try value.optionalValue()
      case 32: eventDescription = try value.optionalValue()
      case 64: homeScore = try value.optionalValue()
      case 128: visitorScore = try value.optionalValue()
      default: score = try value.optionalValue()
      }
    }
    self.init(
      clock: clock, teamId: teamId, plays: plays, visitorText: visitorText, homeText: homeText,
      eventDescription: eventDescription, homeScore: homeScore, visitorScore: visitorScore, score: score)
  }
}

extension GraphQLPlayByPlay.Item: JSONReadable {
  /// In one pass over the play's members, as `Entry` is read.
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    var playText: String?
    var homeScore: Int?
    var visitorScore: Int?
    var clock: String?
    var seen: UInt8 = 0
    try json.forEachMember { key, value throws(JSONShapeError) in
      let bit: UInt8 =
        switch key.count {
        case 5: key.is("clock") ? 8 : 0
        case 8: key.is("playText") ? 1 : 0
        case 9: key.is("homeScore") ? 2 : 0
        case 12: key.is("visitorScore") ? 4 : 0
        default: 0
        }
      guard bit != 0, seen & bit == 0 else { return }
      seen |= bit
      switch bit {
      case 1: playText = try value.optionalValue()
      case 2: homeScore = try value.optionalValue()
      case 4: visitorScore = try value.optionalValue()
      default: clock = try value.optionalValue()
      }
    }
    self.init(playText: playText, homeScore: homeScore, visitorScore: visitorScore, clock: clock)
  }
}
