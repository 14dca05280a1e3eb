import Foundation
import StatlineCore
import StatlineHTML

/// Opening a stats.ncaa.org page: the HTML document, once the page is known to be one of the
/// site's stats pages. A login form, an error page or any other site's page is refused as
/// blocked (STRUCTURE.md §5c): it is never read as a game without rows.
enum StatsPage {
  /// The page's document. Walls, challenges and login pages were refused before any parser
  /// ran (`check`, through `ParserEntry.check`).
  static func document(_ page: Page) throws -> Document {
    try Document.html(page.body, url: page.url)
  }

  /// A login form, or a 2xx page that is not one of the site's stats pages (its title does not
  /// say "NCAA Statistics"): blocked. The job's fetcher charges the host's breaker for it like
  /// for a wall. Reads bytes only: this runs on every page fetched from the site.
  static func check(_ page: Page) -> StatlineError? {
    guard (200..<300).contains(page.status), !page.isBlank else { return nil }
    let head = page.body.prefix(1 << 16)
    if ByteSearch.contains(head, "type=\"password\"") || ByteSearch.contains(head, "type='password'") {
      return StatlineError(
        .blocked, "the page is a login form, not a stats page",
        hint: "stats.ncaa.org pages are public: the request was redirected to a sign-in page; check access by hand")
    }
    let title = ByteSearch.title(of: head)
    guard let title, title.contains("NCAA Stat") else {
      return StatlineError(
        .blocked, "the page is not a stats.ncaa.org page (title '\(title?.prefix(80) ?? "none")')",
        hint: "the site answered with another page (a wall, an error or a redirect): check the URL by hand")
    }
    return nil
  }

  /// The `div.card-header` elements of the card (the nearest `div.card`) holding `node`.
  static func cardHeaders(of node: Node) -> [Node] {
    var card = node.parent
    while let current = card {
      if current.name == "div",
        (current.attribute("class") ?? "").split(whereSeparator: \.isWhitespace).contains("card")
      {
        break
      }
      card = current.parent
    }
    return (card?.children(named: "div") ?? []).filter { $0.attribute("class")?.contains("card-header") == true }
  }

  /// The lines of a cell as its text and links give them (`./text() | ./a`, each
  /// whitespace-normalized, blanks dropped): `@ Navy`, or `Dartmouth` then `@Denver, CO`.
  static func lines(of cell: FragmentNode) -> [String] {
    cell.childNodes.compactMap { child -> String? in
      switch child {
      case .text(let text): text
      case .element(let element): element.name == "a" ? element.text : nil
      }
    }.filter { !$0.isEmpty }
  }

  /// A table's rows in document order: those of its `tbody` elements and its own (`./tbody/tr |
  /// ./tr`), walked without XPath.
  static func rows<Element: ElementNode>(of table: Element) -> [Element] {
    table.children.flatMap { child -> [Element] in
      switch child.name {
      case "tbody": child.children(named: "tr")
      case "tr": [child]
      default: []
      }
    }
  }
}
