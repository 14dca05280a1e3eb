import Foundation
import StatlineCore
import StatlineHTML

/// Reads an ncaa.com rankings page (media and coaches polls, RPI and NET pages). No real page is
/// saved here: the parser is header-driven, as other public scrapers describe the pages (a
/// `table.sticky` whose header names its columns in an order that differs between polls), and
/// keeps a column it does not know under its header. A page without a poll table, or whose
/// table's header has no rank or no school column, is refused, naming what it found.
struct ComRankingsParser: PageParser {
  static let host = "https://www.ncaa.com"

  func parse(_ page: Page) throws -> ComRankingsPage {
    let document = try Document.html(page.body, url: page.url)
    var warnings: [String] = []
    let tables = try document.select(css: "table")
    guard !tables.isEmpty else {
      throw StatlineError(
        .wrongPage, "the page has no poll table", location: page.location,
        hint: "an ncaa.com rankings page holds its poll in a table.sticky; the page may be a wall or another page")
    }
    // The poll's table: the first whose header names a rank and a school.
    var found: (table: Node, columns: [String])?
    var headers: [[String]] = []
    for table in tables {
      let columns = Self.header(of: table)
      headers.append(columns)
      if Self.column(.rank, in: columns) != nil, Self.column(.school, in: columns) != nil {
        found = (table, columns)
        break
      }
    }
    guard let (table, columns) = found else {
      let seen = headers.map { "[\($0.joined(separator: ", "))]" }.joined(separator: "; ")
      let lacks = headers.contains { Self.column(.rank, in: $0) != nil } ? "a school" : "a rank"
      throw StatlineError(
        .wrongPage, "no table's header has \(lacks) column (headers: \(seen))", location: page.location,
        hint: "the poll's columns are read by their header's words (RANK, SCHOOL, …): the layout may have changed")
    }
    var rows: [ComRankingsPage.Row] = []
    for row in table.descendants(named: "tr") {
      let cells = row.children.filter { $0.name == "td" }
      guard !cells.isEmpty else { continue }
      guard cells.count == columns.count else {
        warnings.append(
          "a row of \(cells.count) cells under a header of \(columns.count): left out ('\(row.words.prefix(60))')")
        continue
      }
      var values: [String: String] = [:]
      for (column, cell) in zip(columns, cells) { values[column] = cell.words }
      let school = Self.column(.school, in: columns).map { cells[$0] }
      let slug = school.flatMap { cell in
        cell.descendants(named: "a").lazy.compactMap { Self.schoolSlug($0.attribute("href")) }.first
      }
      rows.append(ComRankingsPage.Row(cells: values, slug: slug))
    }
    let selected = try Self.pollOptions(document)
    let url = page.url.flatMap(Self.pollPath(of:)) ?? selected.selected.flatMap(Self.pollPath(of:))
    guard let path = url, let sport = NCAASports.sport(slug: path.sport) else {
      throw StatlineError(
        .wrongPage, "neither the URL nor the poll drop-down says which sport's rankings these are",
        location: page.location, hint: "replay it with --url https://www.ncaa.com/rankings/{sport}/{division}/{poll}")
    }
    let name =
      try document.first(css: "h1").map(\.words).flatMap { $0.isEmpty ? nil : $0 }
      ?? selected.selectedName ?? Self.title(document) ?? path.poll
    let through = try Self.through(document)
    if through == nil { warnings.append("the page prints no 'Through Games' date: the week is named 'undated'") }
    return ComRankingsPage(
      sport: sport, pollPath: "\(path.sport)-\(path.division)-\(path.poll)", name: name, columns: columns, rows: rows,
      through: through, fetchedDay: page.fetchedAt.map(Self.day), others: try Self.others(document),
      page: path.page, otherPages: try Self.pages(document, current: path), otherPolls: selected.others,
      warnings: warnings)
  }

  enum Role { case rank, school, points, previous, record, firstPlaceVotes }

  /// The header words each role goes by.
  static let names: [Role: Set<String>] = [
    .rank: ["RANK", "RK", "#"], .school: ["SCHOOL", "TEAM", "COLLEGE"], .points: ["POINTS", "PTS"],
    .previous: ["PREVIOUS", "PREV", "PREVIOUS RANK", "LAST WEEK", "LW"], .record: ["RECORD", "W-L", "OVERALL"],
    .firstPlaceVotes: ["FIRST PLACE VOTES", "1ST", "FIRST-PLACE VOTES"],
  ]

  static func column(_ role: Role, in columns: [String]) -> Int? {
    columns.firstIndex { names[role, default: []].contains($0) }
  }

  /// A table's header: its `th` cells (of `thead`, else its first row), upper-cased.
  static func header(of table: Node) -> [String] {
    let head = table.firstDescendant(named: "thead") ?? table
    guard let row = head.firstDescendant(named: "tr", where: { !$0.children(named: "th").isEmpty }) else {
      return []
    }
    return row.children(named: "th").map { $0.words.uppercased() }
  }

  /// `/rankings/lacrosse-men/d1/inside-lacrosse` (or a full URL, `/p2` for its second page).
  static func pollPath(of text: String) -> (sport: String, division: String, poll: String, page: Int)? {
    guard let range = text.range(of: "/rankings/") else { return nil }
    let rest = text[range.upperBound...].prefix { $0 != "?" && $0 != "#" }
    var parts = rest.split(separator: "/").map(String.init)
    var page = 1
    if let last = parts.last, last.hasPrefix("p"), let number = Int(last.dropFirst()) {
      page = number
      parts.removeLast()
    }
    guard parts.count == 3 else { return nil }
    return (parts[0], parts[1], parts[2], page)
  }

  static func schoolSlug(_ href: String?) -> String? {
    guard let href, let range = href.range(of: "/schools/") else { return nil }
    let slug = href[range.upperBound...].prefix { $0 != "/" && $0 != "?" }
    return slug.isEmpty ? nil : String(slug)
  }

  /// The drop-down of the sport's polls: the options whose value is a `/rankings/` path.
  static func pollOptions(_ document: Document) throws -> (selected: String?, selectedName: String?, others: [String]) {
    var selected: (String, String)?
    var others: [String] = []
    for option in try document.select(css: "option") {
      guard let value = option.attribute("value"), value.contains("/rankings/"), pollPath(of: value) != nil else {
        continue
      }
      if option.attribute("selected") != nil {
        selected = (value, option.words)
      } else {
        others.append(value.hasPrefix("http") ? value : host + value)
      }
    }
    return (selected?.0, selected?.1, others)
  }

  static func title(_ document: Document) throws -> String? {
    guard let title = try document.first(css: "title")?.words, !title.isEmpty else { return nil }
    return title.components(separatedBy: " | ").first
  }

  /// "Through Games JAN. 5, 2026" (in `figure.rankings-last-updated`, else any element saying
  /// "Through") → `2026-01-05`.
  static func through(_ document: Document) throws -> String? {
    let figures = try document.select(css: ".rankings-last-updated")
    let texts = figures.map(\.words) + (try document.select(xpath: "//*[contains(text(), 'Through')]")).map(\.words)
    return texts.lazy.compactMap(ComDate.date(in:)).first
  }

  /// "Others receiving votes: Maryland 12, Georgetown 5, Army West Point 1."
  static func others(_ document: Document) throws -> [(name: String, points: Int?)] {
    let nodes = try document.select(xpath: "//*[contains(text(), 'receiving votes')]")
    guard let text = nodes.last?.words, let colon = text.firstIndex(of: ":") else { return [] }
    return text[text.index(after: colon)...].split(separator: ",").compactMap { item in
      var words = item.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "."))).split(separator: " ")
      guard !words.isEmpty else { return nil }
      let points = words.count > 1 ? Int(words.last!) : nil
      if points != nil { words.removeLast() }
      return (words.joined(separator: " "), points)
    }
  }

  /// The pager's other pages of this poll (`ul.stats-pager`): full URLs, in page order.
  static func pages(
    _ document: Document, current: (sport: String, division: String, poll: String, page: Int)
  ) throws -> [String] {
    var pages: [Int: String] = [:]
    for link in try document.select(css: "ul.stats-pager a") {
      guard let href = link.attribute("href") else { continue }
      let number: Int? =
        if let path = pollPath(of: href) {
          path.poll == current.poll ? path.page : nil
        } else if let range = href.range(of: "page=") {
          Int(href[range.upperBound...].prefix { $0.isNumber })
        } else {
          nil
        }
      guard let number, number != current.page else { continue }
      let base = "\(host)/rankings/\(current.sport)/\(current.division)/\(current.poll)"
      pages[number] = number == 1 ? base : "\(base)/p\(number)"
    }
    return pages.sorted { $0.key < $1.key }.map(\.value)
  }

  static func day(_ date: Date) -> String {
    let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }
}

/// ncaa.com's printed dates: "JAN. 5, 2026", "March 2, 2026", "Sept. 28, 2025".
enum ComDate {
  static let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

  static func date(in text: String) -> String? {
    let words = text.uppercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    for index in words.indices.dropLast(2) {
      guard let month = months.firstIndex(of: String(words[index].prefix(3))), words[index].count >= 3,
        words[index].allSatisfy(\.isLetter), let day = Int(words[index + 1]), (1...31).contains(day),
        let year = Int(words[index + 2]), (1900...2999).contains(year)
      else { continue }
      let date = String(format: "%04d-%02d-%02d", year, month + 1, day)
      return BatchValidator.isDate(date) ? date : nil
    }
    return nil
  }
}
