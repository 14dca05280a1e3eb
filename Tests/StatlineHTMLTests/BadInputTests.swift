import Foundation
import StatlineCore
import StatlineHTML
import Testing

/// Hostile and broken input: each gives a clear error or a correct tolerant parse, never a
/// crash, a hang or a read of a local file.
@Suite(.timeLimit(.minutes(2))) struct BadInputTests {
  @Test func anEmptyBodyIsAnError() {
    #expect(throws: StatlineError.self) { try Document.html(Data()) }
    #expect(throws: StatlineError.self) { try Document.xml(Data()) }
  }

  @Test func textWithoutMarkupHasNoRootAndIsAnError() {
    do {
      _ = try Document.html(Data("just some words, no tags".utf8))
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .wrongPage)
    }
  }

  @Test func binaryGarbageNeverCrashes() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let bytes = (0..<65_536).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
    // Either outcome is acceptable for the document layer; parsers then reject what they find.
    _ = try? Document.html(Data(bytes))
    #expect(throws: StatlineError.self) { try Document.xml(Data(bytes)) }
  }

  @Test func truncatedMarkupParsesTolerantlyAndIsDetectable() throws {
    let cut = Data("<html><body><table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td".utf8)
    let document = try Document.html(cut)
    #expect(try document.select(css: "td").map(\.text) == ["1", "2", "3", ""])
    #expect(!Document.endsHTMLPage(cut))
    #expect(Document.endsHTMLPage(Data("<html><body></body></html>\n".utf8)))
    do {
      _ = try Document.xml(Data("<lcgame><team vh=\"V\"><linescore".utf8))
      Issue.record("a truncated XML must not parse")
    } catch {
      #expect(error.kind == .truncated)
      #expect(error.reason.contains("ends before its elements close"))
    }
  }

  @Test func invalidUTF8DoesNotStopTheParse() throws {
    var bytes = Data("<html><head><meta charset=\"utf-8\"></head><body><p>caf".utf8)
    bytes.append(contentsOf: [0xC3, 0x28, 0xFF])
    bytes.append(contentsOf: Data("</p><p>after</p></body></html>".utf8))
    let document = try Document.html(bytes)
    let texts = try document.select(css: "p").map(\.text)
    #expect(texts.count == 2)
    #expect(texts.last == "after")
    #expect(texts.first?.hasPrefix("caf") == true)
  }

  @Test func aTwentyMegabytePageParses() throws {
    var html = "<html><body><table>"
    let row = "<tr class=\"r\"><td>Player Name</td><td>12</td><td>34</td><td>56:00</td></tr>\n"
    let rows = (20 << 20) / row.utf8.count + 1
    html.reserveCapacity(rows * row.utf8.count + 64)
    for _ in 0..<rows { html += row }
    html += "</table></body></html>"
    let data = Data(html.utf8)
    #expect(data.count > 20 << 20)
    let document = try Document.html(data)
    #expect(try document.string(xpath: "count(//tr)") == String(rows))
    #expect(try document.select(css: "tr:last-child td:first-child").map(\.text) == ["Player Name"])
  }

  @Test func aPageOverTheSizeLimitIsRefusedBeforeParsing() {
    do {
      _ = try Document.html(Data(repeating: 0x41, count: 2048), limits: DocumentLimits(maximumBytes: 1024))
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .unsafeDocument)
      #expect(error.reason.contains("over the limit of 1024"))
    }
  }

  /// Tables nested in tables (the shape of a fuzzed calendar that took 1.6 s): every per-row
  /// `.//` query walks the rest of the page, until the step budget refuses the document.
  @Test func queriesOverNestedTagSoupStopAtTheStepBudget() throws {
    let nested =
      String(repeating: "<table id=t><tr><td><a href=x>1</a>", count: 100)
      + String(repeating: "</td></tr></table>", count: 100)
    let rowsQuery = "//table[@id='t']/descendant::tr[td]"
    // With the default budget the page goes through, and costs this many steps.
    let document = try Document.html(Data(nested.utf8))
    let rows = try document.select(xpath: rowsQuery)
    #expect(rows.count == 100)
    let forRows = document.queryStepsUsed
    for row in rows { #expect(try row.select(xpath: ".//a").count >= 1) }
    let total = document.queryStepsUsed
    #expect(total > forRows + 10_000, "each row's query walks the rows nested in it")
    // A budget between the two: the rows are found, the per-row queries are refused.
    let budget = (forRows + total) / 2
    let limited = try Document.html(
      Data(nested.utf8), url: "soup.html", limits: DocumentLimits(maximumQuerySteps: budget))
    let limitedRows = try limited.select(xpath: rowsQuery)
    let error = #expect(throws: StatlineError.self) {
      for row in limitedRows { _ = try row.select(xpath: ".//a") }
    }
    #expect(error?.kind == .unsafeDocument && error?.location == "soup.html")
    #expect(error?.reason == "querying the page took more than \(budget) XPath steps")
    // No budget (0, libxml2's "no limit"): the queries run, and a bad expression is still named.
    let unlimited = try Document.html(Data(nested.utf8), limits: DocumentLimits(maximumQuerySteps: 0))
    for row in try unlimited.select(xpath: rowsQuery) { _ = try row.select(xpath: ".//a") }
    let invalid = #expect(throws: StatlineError.self) { try unlimited.select(xpath: "//[") }
    #expect(invalid?.reason == "invalid XPath expression '//['")
  }

  @Test func markupNested100000LevelsDeep() throws {
    let depth = 100_000
    let html =
      "<html><body>" + String(repeating: "<div>", count: depth) + "deep"
      + String(repeating: "</div>", count: depth) + "</body></html>"
    do {
      _ = try Document.html(Data(html.utf8))
      Issue.record("100,000 levels of HTML must be refused")
    } catch {
      #expect(error.kind == .unsafeDocument)
      #expect(error.reason == "the markup is nested deeper than 512 levels")
    }
    let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
    do {
      _ = try Document.xml(Data(xml.utf8))
      Issue.record("100,000 levels of XML must be refused")
    } catch {
      #expect(error.kind == .wrongPage || error.kind == .unsafeDocument)
    }
    // Nesting within the limit parses, and queries over it stay cheap.
    let ok =
      "<html><body>" + String(repeating: "<div>", count: 400) + "deep" + String(repeating: "</div>", count: 400)
      + "</body></html>"
    let document = try Document.html(Data(ok.utf8))
    #expect(try document.select(css: "div").count == 400)
    #expect(document.root?.text == "deep")
  }

  static let billionLaughs = """
    <?xml version="1.0"?>
    <!DOCTYPE lolz [
     <!ENTITY lol "lol">
     <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
     <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
     <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
     <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
     <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
     <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
     <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
     <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
    ]>
    <lolz a="&lol9;">&lol9;</lolz>
    """

  /// UTF-16 hides `<!ENTITY` from a byte scan; the parsed DTD is checked as well.
  static func utf16(_ text: String) -> Data {
    var data = Data([0xFF, 0xFE])
    for unit in text.replacingOccurrences(
      of: "<?xml version=\"1.0\"?>", with: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
    ).utf16 {
      data.append(UInt8(unit & 0xFF))
      data.append(UInt8(unit >> 8))
    }
    return data
  }

  @Test(arguments: [Data(billionLaughs.utf8), utf16(billionLaughs)])
  func billionLaughsIsRefused(_ data: Data) {
    do {
      let document = try Document.xml(data)
      Issue.record("entity declarations must be refused; root text: \(document.root?.text.prefix(40) ?? "")")
    } catch {
      #expect(error.kind == .unsafeDocument || error.kind == .wrongPage)
    }
  }

  @Test func anExternalEntityNeverReadsTheLocalFile() throws {
    let secret = FileManager.default.temporaryDirectory.appendingPathComponent("statline-secret-\(UUID()).txt")
    try Data("TOP-SECRET-CONTENT".utf8).write(to: secret)
    defer { try? FileManager.default.removeItem(at: secret) }
    let inline = """
      <?xml version="1.0"?>
      <!DOCTYPE r [<!ENTITY x SYSTEM "file://\(secret.path)">]>
      <r><v>&x;</v></r>
      """
    for data in [Data(inline.utf8), Self.utf16(inline)] {
      do {
        let document = try Document.xml(data)
        #expect(document.root?.text.contains("TOP-SECRET") != true)
        Issue.record("a document declaring an external entity must be refused")
      } catch {
        #expect(error.kind == .unsafeDocument || error.kind == .wrongPage)
      }
    }
    // An external DTD is never loaded either: the entity it would define stays undefined.
    let dtd = FileManager.default.temporaryDirectory.appendingPathComponent("statline-\(UUID()).dtd")
    try Data("<!ENTITY y SYSTEM \"file://\(secret.path)\">".utf8).write(to: dtd)
    defer { try? FileManager.default.removeItem(at: dtd) }
    let external = "<?xml version=\"1.0\"?><!DOCTYPE r SYSTEM \"file://\(dtd.path)\"><r>&y;</r>"
    if let document = try? Document.xml(Data(external.utf8)) {
      #expect(document.root?.text.contains("TOP-SECRET") == false)
    }
  }
}
