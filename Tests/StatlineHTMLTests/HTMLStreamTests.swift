import Foundation
import StatlineCore
import StatlineHTML
import Testing

/// The streaming HTML reader and the fragments built from it: the events a reader sees, every
/// way a page is refused, and fragments that read exactly as libxml2's tree of the same bytes.
@Suite struct HTMLStreamTests {
  /// Records every event as text.
  struct Recorder: HTMLStreamReader {
    var events: [String] = []
    var failAt: String?

    mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
      if let failAt, element.string == failAt { throw StatlineError(.wrongPage, "refused <\(failAt)>") }
      let listed = attributes.map { "\($0.name.string)=\(String(decoding: $0.value.bytes, as: UTF8.self))" }
      events.append("<\(([element.string] + listed).joined(separator: " "))>")
    }

    mutating func end(_ element: XMLName) { events.append("</\(element.string)>") }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
      let text = String(decoding: bytes, as: UTF8.self)
      if let last = events.last, last.hasPrefix("\"") {
        events[events.count - 1] = String(last.dropLast()) + text + "\""
      } else {
        events.append("\"\(text)\"")
      }
    }

    mutating func comment() { events.append("<!---->") }
  }

  /// Keeps every element with one of these names whole (nested ones too), in document order.
  struct Keeper: HTMLStreamReader {
    let names: Set<String>
    var kept: [FragmentNode?] = []
    var captures = FragmentCaptures()

    mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
      if names.contains(element.string) {
        kept.append(nil)
        captures.begin(kept.count - 1)
      }
      captures.start(element, attributes: attributes)
    }

    mutating func end(_ element: XMLName) { captures.end { slot, root in kept[slot] = root } }
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }
    mutating func comment() { captures.comment() }
  }

  func read(_ html: String, failAt: String? = nil, limits: DocumentLimits = .default) throws(StatlineError) -> [String]
  {
    var recorder = Recorder(failAt: failAt)
    try HTMLStream.read(Data(html.utf8), into: &recorder, url: "test.html", limits: limits)
    return recorder.events
  }

  @Test func tagSoupArrivesBalancedWithImpliedEndsAndDecodedText() throws {
    let events = try read(
      "<table id=t><tr><td nowrap class='a b'>1 &amp; 2<td>x<!-- c -->y</table><p>caf&eacute;<br>end")
    #expect(
      events == [
        "<table id=t>", "<tr>", "<td nowrap=nowrap class=a b>", "\"1 & 2\"", "</td>", "<td>", "\"x\"", "<!---->",
        "\"y\"",
        "</td>", "</tr>", "</table>", "<p>", "\"café\"", "<br>", "</br>", "\"end\"", "</p>",
      ])
  }

  @Test func refusesWhatTheDocumentLayerRefuses() {
    #expect(throws: StatlineError.self) { try read("plain text, no markup") }
    let noElements = #expect(throws: StatlineError.self) { try read("<!-- only a comment -->") }
    #expect(noElements?.kind == .wrongPage)
    let large = #expect(throws: StatlineError.self) {
      try read("<p>\(String(repeating: "x", count: 200))</p>", limits: DocumentLimits(maximumBytes: 100))
    }
    #expect(large?.kind == .unsafeDocument)
    let deep = #expect(throws: StatlineError.self) {
      try read(String(repeating: "<div>", count: 40), limits: DocumentLimits(maximumDepth: 30))
    }
    #expect(deep?.kind == .unsafeDocument)
    #expect(deep?.reason.contains("deeper than 30") == true)
  }

  @Test func aReaderThatThrowsStopsTheParseWithItsError() {
    let error = #expect(throws: StatlineError.self) { try read("<div><span>a</span><b>b</b></div>", failAt: "b") }
    #expect(error?.reason == "refused <b>")
  }

  /// Every table, row and cell kept from a stream reads as the same element of the tree does:
  /// names, text, words, attributes, children and descendants.
  @Test(arguments: [
    "<table class=x><tr><td class='a  b'>1<td class=b> a <b>bold</b>&nbsp;c<!-- - -->d</td></tr><tbody><tr><th>FO<br />Won</table>",
    "<div><table align=center><tr><td style='font-size:36px'> 7 </td><td><table><tr><td>in</table></td></tr></table>",
    "<table><thead><tr><th>#<th>Name</thead><tbody><tr><td>3<td><a href='/players/1'>Doe, J</a></table><td>x",
    "<table><tr><td><script>var a = '<td>';</script>t</td><td><style>p{}</style></td></tr></table>",
  ])
  func fragmentsReadAsTheTreeDoes(_ html: String) throws {
    try expectFragmentsMatchTree(Data(("<html><body>" + html).utf8))
  }

  @Test func realStatsPagesFragmentsReadAsTheTreeDoes() throws {
    guard let real = ProcessInfo.processInfo.environment["STATLINE_REAL_FIXTURES"] else { return }
    let folder = URL(fileURLWithPath: real).appendingPathComponent("ncaa-stats")
    let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".html") }
    #expect(pages.count >= 4)
    for page in pages.sorted() {
      try expectFragmentsMatchTree(try Data(contentsOf: folder.appendingPathComponent(page)))
    }
  }

  func expectFragmentsMatchTree(_ data: Data) throws {
    let names: Set<String> = ["table", "tr", "td", "th", "a", "span", "div"]
    var keeper = Keeper(names: names)
    try HTMLStream.read(data, into: &keeper)
    let document = try Document.html(data)
    let root = try #require(document.root)
    let kept = keeper.kept.compactMap { $0 }
    #expect(kept.count == keeper.kept.count, "every kept element ended")
    for name in names.sorted() {
      let fragments = kept.filter { $0.name == name }
      let nodes = root.descendants(named: name)
      #expect(fragments.count == nodes.count, "<\(name)> elements")
      for (fragment, node) in zip(fragments, nodes) { expectSame(fragment, node) }
    }
  }

  func expectSame(_ kept: FragmentNode, _ node: Node) {
    #expect(kept.name == node.name)
    #expect(kept.text == node.text)
    #expect(kept.words == node.words)
    for (name, value) in node.attributes { #expect(kept.attribute(name) == value, "attribute \(name)") }
    #expect(kept.attribute("no-such-attribute") == nil)
    #expect(kept.children.map(\.name) == node.children.map(\.name))
    let childNodes = kept.childNodes.map { child -> String in
      switch child {
      case .element(let element): "<\(element.name)>"
      case .text(let text): text
      }
    }
    let treeChildNodes = (try? node.select(xpath: "./text() | ./*"))?.map { $0.isElement ? "<\($0.name)>" : $0.text }
    #expect(childNodes == treeChildNodes)
    for className in ["x", "a", "b", "dataTable", "card", "card-header"] {
      let css = (try? node.select(css: ".\(className)"))?.map(\.text)
      #expect(kept.descendants(withClass: className).map(\.text) == css, "class \(className)")
      #expect(
        kept.hasClass(className)
          == (node.attribute("class")?.split(separator: " ").contains { $0 == className } ?? false))
    }
    for name in ["td", "tr", "a", "table"] {
      #expect(kept.children(named: name).map(\.text) == node.children(named: name).map(\.text))
      #expect(kept.descendants(named: name).map(\.text) == node.descendants(named: name).map(\.text))
      #expect(kept.firstDescendant(named: name)?.text == node.firstDescendant(named: name)?.text)
      // The first that passes a test: the second of the name, or one that carries a link.
      var seen = (kept: 0, node: 0)
      let secondKept = kept.firstDescendant(named: name) { _ in
        seen.kept += 1
        return seen.kept == 2
      }
      let secondNode = node.firstDescendant(named: name) { _ in
        seen.node += 1
        return seen.node == 2
      }
      #expect(secondKept?.text == secondNode?.text)
      #expect(seen.kept == seen.node, "<\(name)> elements asked")
      #expect(
        kept.firstDescendant(named: name, where: { $0.attribute("href") != nil })?.text
          == node.firstDescendant(named: name, where: { $0.attribute("href") != nil })?.text)
    }
  }
}
