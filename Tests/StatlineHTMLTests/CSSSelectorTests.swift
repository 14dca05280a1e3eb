import Foundation
import StatlineHTML
import Testing

/// Every supported selector form against one known document; each row names the ids of the
/// elements it must select, in document order.
@Suite struct CSSSelectorTests {
  static let html = """
    <html><body>
    <div id="main" class="card wide">
      <h1 id="title" class="head">Scores</h1>
      <p id="p1" class="lead first">One</p>
      <p id="p2" lang="en-US" data-x="alpha beta">Two</p>
      <p id="p3" class="lead" title="hello world">Three</p>
      <ul id="list">
        <li id="li1" class="odd">a</li>
        <li id="li2">b</li>
        <li id="li3" class="odd">c</li>
        <li id="li4">d</li>
        <li id="li5" class="odd last">e</li>
      </ul>
      <table id="t"><tr id="r1" class="underline_rows"><td id="c1">1</td><td id="c2" data-order="2">2</td></tr>
        <tr id="r2"><td id="c3" colspan="2"></td></tr></table>
      <a id="a1" href="/contests/6310104/box_score">L 8-11</a>
      <a id="a2" href="https://stats.ncaa.org/teams/594020">Air  Force</a>
    </div>
    <div id="side"><span id="s1" class="tag">x</span><em id="e1">y</em><span id="s2" class="tag">z</span></div>
    </body></html>
    """

  static let cases: [(String, [String])] = [
    ("h1", ["title"]),
    ("p", ["p1", "p2", "p3"]),
    ("*#title", ["title"]),
    ("#p2", ["p2"]),
    (".lead", ["p1", "p3"]),
    ("p.lead.first", ["p1"]),
    (".card.wide", ["main"]),
    ("[title]", ["p3"]),
    ("[lang=en-US]", ["p2"]),
    ("[lang|=en]", ["p2"]),
    ("[data-x~=beta]", ["p2"]),
    ("[data-x~=alp]", []),
    ("a[href^=\"/contests/\"]", ["a1"]),
    ("a[href$='594020']", ["a2"]),
    ("a[href*=\"ncaa.org\"]", ["a2"]),
    ("[title=\"hello world\"]", ["p3"]),
    ("ul > li", ["li1", "li2", "li3", "li4", "li5"]),
    ("div > p", ["p1", "p2", "p3"]),
    ("body > p", []),
    ("div li", ["li1", "li2", "li3", "li4", "li5"]),
    ("h1 + p", ["p1"]),
    ("h1 ~ p", ["p1", "p2", "p3"]),
    ("p + p", ["p2", "p3"]),
    ("li:first-child", ["li1"]),
    ("li:last-child", ["li5"]),
    ("li:nth-child(2)", ["li2"]),
    ("li:nth-child(odd)", ["li1", "li3", "li5"]),
    ("li:nth-child(even)", ["li2", "li4"]),
    ("li:nth-child(2n+1)", ["li1", "li3", "li5"]),
    ("li:nth-child(3n)", ["li3"]),
    ("li:nth-child(-n+2)", ["li1", "li2"]),
    ("li:nth-child(n+4)", ["li4", "li5"]),
    ("li:nth-last-child(1)", ["li5"]),
    ("li:not(.odd)", ["li2", "li4"]),
    ("p:not([lang])", ["p1", "p3"]),
    ("li:not(:first-child):not(:last-child)", ["li2", "li3", "li4"]),
    ("h1, #list > li.last", ["title", "li5"]),
    (" p , h1 ", ["title", "p1", "p2", "p3"]),
    ("td:empty", ["c3"]),
    ("#side span", ["s1", "s2"]),
    ("#side > span + em", ["e1"]),
    ("#side em ~ span", ["s2"]),
    ("tr.underline_rows td", ["c1", "c2"]),
    ("td[data-order]", ["c2"]),
    ("a:contains(\"Air Force\")", ["a2"]),
    ("ul#list li.odd.last", ["li5"]),
    ("DIV#main > H1", ["title"]),
    ("#main > :first-child", ["title"]),
    ("#r2 td:only-child", ["c3"]),
    ("#list [class]", ["li1", "li3", "li5"]),
    ("p[title='hello world'].lead", ["p3"]),
    ("div:not(#side) > a", ["a1", "a2"]),
  ]

  @Test(arguments: cases)
  func selects(_ selector: String, _ expected: [String]) throws {
    let document = try Document.html(Data(Self.html.utf8))
    let ids = try document.select(css: selector).map { $0.attribute("id") ?? "?" }
    let xpath = try CSSSelector.xpath(for: selector)
    #expect(ids == expected, "\(selector) → \(xpath)")
  }

  @Test func thereAreAtLeastFortySelectors() {
    #expect(Self.cases.count >= 40)
  }

  @Test(arguments: [
    "p[", ":bogus", "p >", "li:nth-child(x)", "#", "a[href=]", "p:not(", "[a^]", "p @ q", "",
    // Found by fuzzing: an escaped control character went into an XPath string libxml2 refuses.
    "\u{FFFD}\\\u{1C}", "p[title='\u{1}']",
  ])
  func invalidSelectorsAreConfigurationErrors(_ selector: String) {
    do {
      _ = try CSSSelector.xpath(for: selector)
      Issue.record("'\(selector)' should be refused")
    } catch {
      #expect(error.kind == .configuration)
      #expect(error.reason.contains("invalid CSS selector"))
    }
  }

  @Test func quotesInValuesAreEscapedForXPath() throws {
    let document = try Document.html(
      Data(#"<html><body><p id="q" title="it's &quot;x&quot;">q</p></body></html>"#.utf8))
    let found = try document.select(css: #"p[title='it\'s "x"']"#)
    #expect(found.map { $0.attribute("id") } == ["q"])
  }

  /// Found by fuzzing (`scripts/fuzz 600`, target css): a quote followed by a combining mark is
  /// one Character, so a Character search missed it and the value was quoted with that quote.
  @Test func aQuoteFollowedByACombiningMarkIsStillAQuote() throws {
    let document = try Document.html(
      Data(
        "<html><head><meta charset=\"utf-8\"></head><body><p id=\"q\" title=\"a'\u{0301}b\">q</p><p id=\"r\" title=\"'\u{07A7}&quot;\">r</p></body></html>"
          .utf8))
    #expect(try document.select(css: "p[title=\"a'\u{0301}b\"]").map { $0.attribute("id") } == ["q"])
    #expect(try document.select(css: "p[title='\\'\u{07A7}\"']").map { $0.attribute("id") } == ["r"])
    #expect(try document.select(css: "#a\\'\u{0301}").isEmpty)
  }

  /// Found by fuzzing (`scripts/fuzz`, target css): a name XPath cannot take as it is (a
  /// non-ASCII letter, an escaped bracket) became an XPath libxml2 refused, or changed the
  /// XPath's shape. Such names are compared as strings: the XPath always compiles, and selects
  /// what the name says.
  @Test(arguments: [
    ("\u{FFFD}\n", [String]()), ("p\\]", []), ("p\\[x", []), ("#main a\\*", []), ("[d\\=x]", []),
    ("[data-x\\]]", []), ("é", []), ("p:not(q\\))", ["p1", "p2", "p3"]), ("[data-x]", ["p2"]),
  ])
  func namesXPathCannotTakeAreComparedAsStrings(_ selector: String, _ expected: [String]) throws {
    let document = try Document.html(Data(Self.html.utf8))
    let xpath = try CSSSelector.xpath(for: selector)
    let ids = try document.select(xpath: xpath).map { $0.attribute("id") ?? "?" }
    #expect(ids == expected, "\(selector.debugDescription) → \(xpath)")
  }

  @Test func selectorsRunRelativeToANode() throws {
    let document = try Document.html(Data(Self.html.utf8))
    let side = try #require(try document.first(css: "#side"))
    #expect(try side.select(css: "span").map { $0.attribute("id") ?? "" } == ["s1", "s2"])
    #expect(try side.select(css: "p").isEmpty)
  }
}
