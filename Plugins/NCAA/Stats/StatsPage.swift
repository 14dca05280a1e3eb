import Foundation
import StatlineCore
import StatlineHTML

/// Opening a stats.ncaa.org page: the HTML document, once the page is known to be one of the
/// site's stats pages. A login form, an error page or any other site's page is refused as
/// blocked (STRUCTURE.md §5c): it is never read as a game without rows.
enum StatsPage {
  static func open(_ page: Page, expecting what: String) throws -> Document {
    if let refusal = check(page) { throw refusal }
    return try Document.html(page.body, url: page.url)
  }

  /// A login form or a page that is not one of the site's stats pages, answered with 2xx: the
  /// job's fetcher charges the host's breaker for it like for a wall (`ParserEntry.check`).
  /// Walls and error statuses are left to `BlockDetector`.
  static func check(_ page: Page) -> StatlineError? {
    guard (200..<300).contains(page.status), BlockDetector.check(page) == nil, !page.isBlank else { return nil }
    let head = page.prefix(1 << 16)
    if head.range(of: "type=\"password\"", options: .caseInsensitive) != nil {
      return StatlineError(
        .blocked, "the page is a login form, not a stats page",
        hint: "stats.ncaa.org pages are public: the request was redirected to a sign-in page; check access by hand")
    }
    let title = head.range(of: "<title>", options: .caseInsensitive).map { start in
      head[start.upperBound...].prefix { $0 != "<" }.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard let title, title.contains("NCAA Stat") else {
      return StatlineError(
        .blocked, "the page is not a stats.ncaa.org page (title '\(title?.prefix(80) ?? "none")')",
        hint: "the site answered with another page (a wall, an error or a redirect): check the URL by hand")
    }
    return nil
  }

  /// The text of every text node below `node`, joined by spaces: headers split by `<br />`
  /// read "FO Won", not "FOWon".
  static func words(_ node: Node) throws -> String {
    Node.normalizeWhitespace(try node.select(xpath: ".//text()").map(\.rawText).joined(separator: " "))
  }
}
