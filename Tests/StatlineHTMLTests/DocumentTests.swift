import Foundation
import StatlineCore
import StatlineHTML
import Testing

@Suite struct DocumentTests {
  let document = try! Document.html(
    Data(
      """
      <html><body><div id="d" class="x" data-order="7">  Air\n   <b>Force</b>&nbsp;Falcons  <i>(8-7)</i></div>
      <table><tr><td>1</td><td>2</td></tr></table></body></html>
      """.utf8))

  @Test func textIsWhitespaceNormalized() throws {
    let div = try #require(try document.first(css: "#d"))
    #expect(div.text == "Air Force Falcons (8-7)")
    #expect(div.rawText.contains("\n"))
  }

  @Test func childrenAndDescendantsByNameWithoutXPath() throws {
    let row = try #require(try document.first(css: "tr"))
    #expect(row.children(named: "td").map(\.text) == ["1", "2"])
    #expect(row.children(named: "th").isEmpty)
    let div = try #require(try document.first(css: "#d"))
    #expect(div.firstDescendant(named: "i")?.text == "(8-7)", "found after a sibling's subtree")
    #expect(div.firstDescendant(named: "b")?.text == "Force")
    #expect(div.firstDescendant(named: "table") == nil, "only below the node")
    #expect(document.root?.firstDescendant(named: "td")?.text == "1")
    #expect(document.root?.descendants(named: "td").map(\.text) == ["1", "2"])
    #expect(div.descendants(named: "b").count == 1 && div.descendants(named: "td").isEmpty)
  }

  /// The first element of a name that a test passes, in document order; the walk asks no
  /// element after it.
  @Test func theFirstDescendantThatPassesATestEndsTheWalk() throws {
    let root = try #require(document.root)
    var asked: [String] = []
    let second = root.firstDescendant(named: "td") { cell in
      asked.append(cell.text)
      return cell.text != "1"
    }
    #expect(second?.text == "2")
    #expect(asked == ["1", "2"])
    asked = []
    let first = root.firstDescendant(named: "td") { cell in
      asked.append(cell.text)
      return cell.text == "1"
    }
    #expect(first?.text == "1")
    #expect(asked == ["1"], "no cell asked after the first that passes")
    #expect(root.firstDescendant(named: "td") { _ in false } == nil)
    let div = try #require(try document.first(css: "#d"))
    #expect(div.firstDescendant(named: "td") { _ in true } == nil, "only below the node")
    #expect(root.firstDescendant(named: "b") { $0.text == "Force" }?.text == "Force")
  }

  @Test func attributesAreReadAndListed() throws {
    let div = try #require(try document.first(css: "#d"))
    #expect(div.attribute("data-order") == "7")
    #expect(div.attribute("missing") == nil)
    #expect(div.attributes.map(\.name) == ["id", "class", "data-order"])
  }

  @Test func innerAndOuterHTML() throws {
    let cell = try #require(try document.first(css: "td"))
    #expect(cell.outerHTML == "<td>1</td>")
    #expect(cell.innerHTML == "1")
    let row = try #require(try document.first(css: "tr"))
    #expect(row.innerHTML == "<td>1</td><td>2</td>")
    #expect(row.children.map(\.name) == ["td", "td"])
    #expect(cell.parent?.name == "tr")
  }

  @Test func xpathNodesAndStrings() throws {
    #expect(try document.select(xpath: "//td").count == 2)
    #expect(try document.string(xpath: "count(//td)") == "2")
    #expect(try document.string(xpath: "normalize-space(//div/b)") == "Force")
    let row = try #require(try document.first(xpath: "//tr"))
    #expect(try row.string(xpath: "td[2]") == "2")
  }

  @Test func anInvalidXPathIsAConfigurationError() {
    #expect(throws: StatlineError.self) { try document.select(xpath: "//td[") }
  }

  @Test func aNodeKeepsItsDocumentAlive() throws {
    func firstCell() throws -> Node {
      let local = try Document.html(Data("<html><body><p>kept</p></body></html>".utf8))
      return try #require(try local.first(css: "p"))
    }
    let node = try firstCell()
    #expect(node.text == "kept")
  }

  @Test func xmlDocumentsKeepNameCase() throws {
    let xml = try Document.xml(Data("<lcgame><venue gameid=\"X\"/><Team vh=\"V\"/></lcgame>".utf8))
    #expect(xml.root?.name == "lcgame")
    #expect(try xml.select(css: "Team").count == 1)
    #expect(try xml.select(css: "team").isEmpty)
    #expect(try xml.first(css: "venue")?.attribute("gameid") == "X")
  }

  @Test func latin1PagesAreDecodedFromTheirDeclaration() throws {
    var bytes = Data("<html><head><meta charset=\"iso-8859-1\"></head><body><p>Jos".utf8)
    bytes.append(0xE9)
    bytes.append(contentsOf: Data("</p></body></html>".utf8))
    let latin = try Document.html(bytes)
    #expect(try latin.first(css: "p")?.text == "José")
  }
}
