import Foundation
import StatlineCore
import StatlineHTML

/// Opening a stats.ncaa.org page: the HTML document, once the page is known to be one of the
/// site's stats pages. A login form, an error page or any other site's page is refused as
/// blocked (STRUCTURE.md §5c): it is never read as a game without rows.
enum StatsPage {
  static func open(_ page: Page, expecting what: String) throws -> Document {
    let document = try Document.html(page.body, url: page.url)
    if try document.first(xpath: "//input[@type='password']") != nil {
      throw StatlineError(
        .blocked, "the page is a login form, not \(what)",
        hint: "stats.ncaa.org pages are public: the session was redirected to a sign-in page; check access by hand")
    }
    let title = try document.string(xpath: "normalize-space(//title)")
    let isStatsSite = title.contains("NCAA Statistics") || title.contains("NCAA Stats")
    guard isStatsSite else {
      throw StatlineError(
        .blocked, "the page is not a stats.ncaa.org page (title '\(title.prefix(80))'), so not \(what)",
        hint: "the site answered with another page (a wall, an error or a redirect): check the URL by hand")
    }
    return document
  }

  /// The text of every text node below `node`, joined by spaces: headers split by `<br />`
  /// read "FO Won", not "FOWon".
  static func words(_ node: Node) throws -> String {
    Node.normalizeWhitespace(try node.select(xpath: ".//text()").map(\.rawText).joined(separator: " "))
  }
}
