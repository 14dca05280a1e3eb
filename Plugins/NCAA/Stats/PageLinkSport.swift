import StatlineCore
import StatlineHTML

/// The sport a stats.ncaa.org page's own links state: legacy pages name it nowhere else, but
/// every navigation link carries it (`/rankings?academic_year=2018&sport_code=MBB`). Read only
/// when all the links that carry a code agree on one known code; links that disagree state
/// nothing.
enum PageLinkSport {
  struct Stated: Sendable, Equatable {
    var sport: Sport
    var code: String

    /// The warning saying where the sport came from.
    var warning: String {
      "the page names its sport only in its links (sport_code=\(code)): the sport is \(sport.rawValue)"
    }
  }

  static func stated(in document: Document) throws -> Stated? {
    var codes: Set<String> = []
    for link in try document.select(xpath: "//a[contains(@href,'sport_code=')]") {
      if let code = NCAAIds.code(after: "sport_code=", in: link.attribute("href")) { codes.insert(code.uppercased()) }
    }
    guard codes.count == 1, let code = codes.first, let sport = NCAASports.sport(code: code) else { return nil }
    return Stated(sport: sport, code: code)
  }
}
