import StatlineCore

/// What an ncaa.com rankings page (`/rankings/{sport}/{division}/{poll}`) says, read by what it
/// says: the poll's table by its header's words, the date by "Through", the other polls by the
/// drop-down's `/rankings/` options, the other pages by the pager's links.
struct ComRankingsPage: Sendable {
  struct Row: Sendable {
    /// The table's cells by the header they sit under (as printed, upper-cased).
    var cells: [String: String]
    /// An ncaa.com school slug when the school cell links to `/schools/{slug}`.
    var slug: String?
  }

  var sport: Sport
  /// `lacrosse-men-d1-inside-lacrosse`: sport, division and poll, from the URL or the
  /// drop-down's selected option.
  var pollPath: String
  var name: String
  /// The header's columns, upper-cased, in order.
  var columns: [String]
  var rows: [Row]
  /// "Through Games JAN. 5, 2026" as a date, when the page prints one.
  var through: String?
  /// The day the page was fetched (`YYYY-MM-DD`), the season of an undated poll.
  var fetchedDay: String?
  /// "Others receiving votes: Maryland 12, Georgetown 5".
  var others: [(name: String, points: Int?)]
  /// Which page of a paged poll (1 for an unpaged one), and the others' URLs.
  var page: Int
  var otherPages: [String]
  /// The sport's other polls (the drop-down's options), as ncaa.com paths.
  var otherPolls: [String]
  var warnings: [String]
}
