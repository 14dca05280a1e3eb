import Foundation
import StatlineCore
import Testing

@testable import StatlineHTML

/// The streaming XML reader: what a reader sees, and every way a document is refused.
@Suite struct XMLStreamTests {
  /// Records every event as text.
  struct Recorder: XMLStreamReader {
    var events: [String] = []
    var numbers: [Int?] = []
    var failAt: String?

    mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError) {
      if let failAt, element.string == failAt { throw StatlineError(.wrongPage, "refused <\(failAt)>") }
      let listed = attributes.map { "\($0.name.string)=\($0.value.string)" }.joined(separator: " ")
      events.append("<\(element.string)\(listed.isEmpty ? "" : " " + listed)>")
      if element == "n" { numbers.append(attributes["v"]?.int) }
    }

    mutating func end(_ element: XMLName) { events.append("</\(element.string)>") }
  }

  func read(_ xml: String, failAt: String? = nil, limits: DocumentLimits = .default) throws(StatlineError) -> Recorder {
    var recorder = Recorder(failAt: failAt)
    try XMLStream.read(Data(xml.utf8), into: &recorder, url: "test.xml", limits: limits)
    return recorder
  }

  @Test func elementsAndAttributesArriveInOrderWithReferencesReplaced() throws {
    let recorder = try read(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment --><game id="1"><play text="Shot by A &amp; B, &lt;WIDE&gt; &#233;t&#xE9;"
      vh="V"/>text<status/></game>
      """)
    #expect(
      recorder.events == [
        "<game id=1>", "<play text=Shot by A & B, <WIDE> été vh=V>", "</play>", "<status>", "</status>", "</game>",
      ])
  }

  @Test func numbersAreReadFromTheBytes() throws {
    let recorder = try read(#"<r><n v="42"/><n v=" 7 "/><n v="-3"/><n v=""/><n v="1,0"/><n v="x"/><n/></r>"#)
    #expect(recorder.numbers == [42, 7, -3, nil, nil, nil, nil])
  }

  @Test func latin1DocumentsAreDecoded() throws {
    var bytes = Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><r name=""#.utf8)
    bytes.append(contentsOf: [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72])
    bytes.append(contentsOf: Data(#""/>"#.utf8))
    var recorder = Recorder()
    try XMLStream.read(bytes, into: &recorder)
    #expect(recorder.events.first == "<r name=Müller>")
  }

  @Test func aCutOffDocumentIsTruncatedEvenAfterSomeElements() {
    #expect {
      _ = try read(#"<lcgame><team vh="V"><linescore"#)
    } throws: { ($0 as? StatlineError)?.kind == .truncated }
    #expect {
      _ = try read(#"<lcgame><team vh="V"></team>"#)
    } throws: { ($0 as? StatlineError)?.kind == .truncated }
  }

  @Test func brokenAndEmptyDocumentsAreRefused() {
    for bad in ["", "not xml at all", "<a><b></a>", "<a x=1/>", "<a>&undeclared;</a>"] {
      #expect(throws: StatlineError.self, "\(bad.debugDescription)") { _ = try read(bad) }
    }
  }

  @Test func entityDeclarationsAreRefusedBeforeParsing() {
    let laughs = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><r v="&a;"/>"#
    #expect {
      _ = try read(laughs)
    } throws: { ($0 as? StatlineError)?.kind == .unsafeDocument }
  }

  @Test func deepNestingIsRefused() {
    let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
    #expect(throws: Never.self) { _ = try read(deep) }
    #expect {
      _ = try read(deep, limits: DocumentLimits(maximumDepth: 20))
    } throws: { ($0 as? StatlineError)?.kind == .unsafeDocument }
  }

  @Test func aReaderErrorStopsTheParseAndIsWhatIsThrown() {
    #expect {
      _ = try read("<a><b/><c/><d/></a>", failAt: "c")
    } throws: { ($0 as? StatlineError)?.reason == "refused <c>" }
  }

  /// Collects text, for the readers that ask for it.
  struct TextRecorder: XMLStreamReader {
    static let readsText = true
    var pieces: [String] = []
    mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError) { pieces.append("<") }
    mutating func end(_ element: XMLName) { pieces.append(">") }
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { pieces.append(String(decoding: bytes, as: UTF8.self)) }
  }

  @Test func textAndCDATAReachOnlyAReaderThatAsks() throws {
    let xml = "<r>a &amp; b<x><![CDATA[<not> &amp;]]></x><!-- no -->c</r>"
    var recorder = TextRecorder()
    try XMLStream.read(Data(xml.utf8), into: &recorder)
    #expect(recorder.pieces.joined() == "<a & b<<not> &amp;>c>")
    // A reader that does not ask gets elements only (Recorder has no text method to call).
    #expect(try read(xml).events == ["<r>", "<x>", "</x>", "</r>"])
  }

  /// A fuzzed StatCrew document made AddressSanitizer report a heap overread here: the name was
  /// compared with a longer one by reading the byte at the longer one's length.
  @Test func namesCompareWithoutReadingPastTheirEnd() {
    func name(_ text: String, _ body: (XMLName) -> Void) {
      let bytes = Array(text.utf8) + [0]
      // Exactly as long as the name and its NUL, so AddressSanitizer sees any read past it.
      let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
      defer { storage.deallocate() }
      storage.initialize(from: bytes, count: bytes.count)
      body(XMLName(pointer: storage))
    }
    name("ay") { ay in
      #expect(!(ay == "currentscore") && !(ay == "a") && !(ay == "ayx") && ay == "ay")
    }
    name("") { empty in #expect(empty == "" && !(empty == "play")) }
    name("play") { play in #expect(play == "play" && !(play == "player") && !(play == "pla")) }
  }
}
