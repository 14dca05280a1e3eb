import Foundation
import StatlineCore
import StatlineTesting
import Testing

/// The tape reader (`JSONDocument`) against Foundation's `JSONSerialization` on every real JSON
/// page and on hand-written documents, and each way a text is not JSON.
@Suite struct JSONDocumentTests {
  /// The document as Foundation's objects: dictionaries (a repeated key: the last), arrays,
  /// strings, `NSNumber`s (booleans apart), `NSNull`.
  static func foundation(_ node: JSONNode) -> Any {
    switch node.kind {
    case .object:
      var object: [String: Any] = [:]
      for (key, value) in node.members { object[key] = foundation(value) }
      return object
    case .array: return node.elements.map(foundation)
    case .string: return node.string!
    case .number: return node.int.map { NSNumber(value: $0) } ?? NSNumber(value: node.double!)
    case .bool: return node.bool!
    case .null: return NSNull()
    }
  }

  /// Where two trees differ (nil: nowhere): keys and strings equal, numbers equal as `Double`s.
  static func difference(_ a: Any, _ b: Any, at path: String = "") -> String? {
    switch (a, b) {
    case (let a as [String: Any], let b as [String: Any]):
      guard Set(a.keys) == Set(b.keys) else { return "\(path): keys \(a.keys.sorted()) against \(b.keys.sorted())" }
      return a.keys.sorted().lazy.compactMap { difference(a[$0]!, b[$0]!, at: path + "." + $0) }.first
    case (let a as [Any], let b as [Any]):
      guard a.count == b.count else { return "\(path): \(a.count) elements against \(b.count)" }
      return zip(a, b).enumerated().lazy.compactMap { difference($1.0, $1.1, at: path + "[\($0)]") }.first
    case (let a as String, let b as String): return a == b ? nil : "\(path): \(a) against \(b)"
    case (is NSNull, is NSNull): return nil
    // Foundation gives booleans as `NSNumber`s on this platform.
    case (let a as Bool, let b as NSNumber): return a == b.boolValue ? nil : "\(path): \(a) against \(b)"
    case (let a as Bool, let b as Bool): return a == b ? nil : "\(path): \(a) against \(b)"
    // Within an ulp or two: `JSONSerialization` here does not round every decimal correctly
    // (11.949999809265137 comes out 2 ulps low; `Double(String)`, `JSONDecoder` and Python give
    // the tape's value).
    case (let a as NSNumber, let b as NSNumber):
      let (x, y) = (a.doubleValue, b.doubleValue)
      return abs(x - y) <= 4 * max(x.ulp, y.ulp) ? nil : "\(path): \(a) against \(b)"
    default: return "\(path): \(a) (\(type(of: a))) against \(b) (\(type(of: b)))"
    }
  }

  static func reads(_ text: String) throws -> JSONNode { try JSONDocument(bytes: Array(text.utf8)).root }

  static func refusal(_ text: String) -> JSONSyntaxError? {
    do {
      _ = try JSONDocument(bytes: Array(text.utf8))
      return nil
    } catch {
      return error
    }
  }

  @Test(.enabled(if: RealPages.available, "set STATLINE_REAL_FIXTURES to read the real pages"))
  func everyRealJSONPageReadsAsFoundationReadsIt() throws {
    let folder = try #require(RealPages.folder)
    let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
      .filter { $0.hasSuffix(".json") && !$0.hasSuffix("FACTS.json") }
    #expect(files.count >= 6)
    for file in files {
      let data = try RealPages.data(file)
      let ours = Self.foundation(try JSONDocument(data: data).root)
      let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      let difference = Self.difference(ours, theirs)
      #expect(difference == nil, "\(file)")
    }
  }

  @Test func handWrittenDocumentsReadAsFoundationReadsThem() throws {
    let texts = [
      #"{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":-0.5e-3,"g":"","h":[],"i":{}}"#,
      "\u{FEFF}  [1, 2 ,3]\n", #""just a string""#, "42", "-0", "1E+2", "true", "null",
      #"{"esc":"q\" b\\ s\/ \b\f\n\r\t \u00e9 \u2603 \ud83c\udfd1","é":"caf\u00e9","":0}"#,
      #"[[[[[[[[[[{"deep":[[[[1]]]]}]]]]]]]]]]"#, #"{"n":12345678901234567890,"m":-9223372036854775808}"#,
      #"{"twice":1,"twice":2}"#, "[1,2, ]", #"{"a":[1,],"b":{"c":1 ,},}"#,
    ]
    for text in texts {
      let data = Data(text.utf8)
      let ours = Self.foundation(try JSONDocument(data: data).root)
      let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      #expect(Self.difference(ours, theirs) == nil, "\(text)")
    }
  }

  @Test func valuesReadAsTheirKinds() throws {
    let root = try Self.reads(
      #"{"int":12,"float":12.0,"exp":1.2e1,"half":1.5,"big":12345678901234567890,"neg":-7,"s":"x","t":true,"#
        + #""lone":"\ud83c!","pair":"\ud83c\udfd1","twice":1,"twice":2,"list":[1,"two",null]}"#)
    #expect(root["int"]?.int == 12 && root["float"]?.int == 12 && root["exp"]?.int == 12)
    #expect(root["half"]?.int == nil && root["half"]?.double == 1.5)
    #expect(root["big"]?.int == nil && root["big"]?.double == 1.2345678901234567e19)
    #expect(root["neg"]?.int == -7 && root["neg"]?.numberText == "-7")
    #expect(root["s"]?.string == "x" && root["s"]?.int == nil && root["int"]?.string == nil)
    #expect(root["t"]?.bool == true && root["s"]?.bool == nil)
    #expect(root["lone"]?.string == "\u{FFFD}!" && root["pair"]?.string == "🏑")
    #expect(root["twice"]?.int == 1, "the first of a repeated key")
    #expect(root["missing"] == nil && root["int"]?["x"] == nil)
    #expect(root["list"]?.elements.map(\.kind) == [.number, .string, .null])
    #expect(root["list"]?.count == 3 && root.count == 13 && root["s"]?.count == 0)
    #expect(root.keys.prefix(3) == ["int", "float", "exp"])
    #expect(try Self.reads("[]").elements.map(\.kind).isEmpty)
  }

  @Test func aTextThatIsNotJSONIsRefusedSayingWhereAndWhy() throws {
    let cases: [(String, String)] = [
      ("", "the text ends where a value was expected at line 1, column 1 (byte 0)"),
      ("[1,,]", "',' where a value was expected at line 1, column 4 (byte 3)"),
      ("[,]", "',' where a value was expected at line 1, column 2 (byte 1)"),
      (#"{"a":1,,}"#, "',' where a key was expected at line 1, column 8 (byte 7)"),
      ("{a:1}", "'a' where a key was expected at line 1, column 2 (byte 1)"),
      ("['x']", "''' where a value was expected at line 1, column 2 (byte 1)"),
      (#"{"a" 1}"#, "a key without ':' after it at line 1, column 6 (byte 5)"),
      ("[1 2]", "'2' where ',' or ']' was expected at line 1, column 4 (byte 3)"),
      ("\"tab\there\"", "a control character (9) inside a string at line 1, column 5 (byte 4)"),
      (#""\x""#, "an unknown escape '\\x' at line 1, column 2 (byte 1)"),
      (#""\u12G4""#, "'\\u' without four hexadecimal digits at line 1, column 2 (byte 1)"),
      (#""open"#, "a string without its closing quote at line 1, column 1 (byte 0)"),
      ("01", "more text after the JSON value at line 1, column 2 (byte 1)"),
      ("-", "a '-' without digits at line 1, column 1 (byte 0)"),
      ("1.", "a '.' without digits after it at line 1, column 3 (byte 2)"),
      ("1e+", "an exponent without digits at line 1, column 4 (byte 3)"),
      ("tru", "'t' where a value was expected at line 1, column 1 (byte 0)"),
      ("NaN", "'N' where a value was expected at line 1, column 1 (byte 0)"),
      ("[\n  1,\n  {", "the text ends inside an object at line 3, column 4 (byte 10)"),
      ("[1", "the text ends inside an array at line 1, column 3 (byte 2)"),
      ("{} {}", "more text after the JSON value at line 1, column 4 (byte 3)"),
    ]
    for (text, expected) in cases {
      #expect(Self.refusal(text)?.description == expected, "\(text.debugDescription)")
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) == nil,
        "Foundation reads \(text.debugDescription)")
    }
  }

  /// The scanner steps over plain string bytes eight at a time: a quote, a backslash or a
  /// control character at any offset of a long string is still seen.
  @Test func everyByteOfALongStringIsLookedAt() throws {
    for length in 0..<24 {
      for offset in 0..<max(1, length) {
        var plain = Array(repeating: UInt8(ascii: "a"), count: length)
        if length > 0 { plain[offset] = 0xC3 }  // a UTF-8 lead byte is plain too
        let text = String(decoding: plain, as: UTF8.self)
        #expect(try Self.reads("\"\(text)\"").string == text)
        guard length > 0 else { continue }
        var control = Array("\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length) + Array("\"".utf8)
        control[1 + offset] = 0x1F
        #expect(
          (try? JSONDocument(bytes: control)) == nil
            && Self.refusal(String(decoding: control, as: UTF8.self))?.offset == 1 + offset)
        var escaped = Array(repeating: "b", count: length)
        escaped[offset] = "\\\""
        #expect(
          try Self.reads("\"" + escaped.joined() + "\"").string
            == escaped.joined().replacingOccurrences(of: "\\", with: ""))
        var quoted = Array(repeating: UInt8(ascii: "c"), count: length)
        quoted[offset] = UInt8(ascii: "\"")
        #expect(Self.refusal("[\"" + String(decoding: quoted, as: UTF8.self) + "\"]")?.offset == 3 + offset)
      }
    }
  }

  /// Indentation is stepped over eight spaces at a time: whatever the run's length, and a tab,
  /// a newline or a bad byte anywhere in or after it, the values and the errors' places are
  /// the ones a byte-by-byte reading gives.
  /// The scanner marks a string ASCII (read with no look for UTF-8) only when no byte of it is
  /// past ASCII: a byte that is not UTF-8 at every place of a word, before a quote or an escape in
  /// the same word or after one, is still found, and a string of valid UTF-8 still reads.
  @Test func aByteThatIsNotUTF8IsFoundWhereverItSits() throws {
    for length in 1..<24 {
      for offset in 0..<length {
        for tail in ["", "\\n", "bb\\t"] {
          var invalid = Array(repeating: UInt8(ascii: "a"), count: length)
          invalid[offset] = 0xE9
          let node = try JSONDocument(bytes: Array("[\"".utf8) + invalid + Array(tail.utf8) + Array("\"]".utf8)).root
          let string = try #require(node.elements.first { _ in true })
          #expect(string.validString == nil, "0xE9 at \(offset) of \(length), then '\(tail)'")
          #expect(string.string?.contains("\u{FFFD}") == true)
          var valid = Array(repeating: UInt8(ascii: "a"), count: length)
          valid[offset] = 0xC3
          valid.insert(0xA9, at: offset + 1)
          let accented = try JSONDocument(bytes: Array("[\"".utf8) + valid + Array(tail.utf8) + Array("\"]".utf8)).root
          let text = try #require(accented.elements.first { _ in true })
          #expect(text.validString?.contains("é") == true, "é at \(offset) of \(length), then '\(tail)'")
        }
      }
    }
  }

  @Test func runsOfSpacesOfEveryLengthAreSteppedOverExactly() throws {
    for length in 0..<40 {
      let run = String(repeating: " ", count: length)
      let text = "{\n\(run)\"a\":\(run)[\n\(run)1,\(run)\"x\"\(run)\t\(run)]\n\(run)}\(run)"
      let root = try Self.reads(text)
      #expect(root["a"]?.elements.map(\.kind) == [.number, .string], "\(length)")
      #expect(root["a"]?.elements.first { _ in true }?.int == 1)
      let bad = "[\n\(run)1,\(run)x]"
      #expect(Self.refusal(bad)?.offset == 2 + length + 2 + length, "\(length)")
      #expect(Self.refusal(bad)?.column == 2 * length + 3 && Self.refusal(bad)?.line == 2)
      let tabbed = "[" + run + "\t" + run + "2" + run + "]"
      #expect(try Self.reads(tabbed).elements.map(\.int) == [2])
    }
  }

  @Test func nestingIsBoundedSoNoPageExhaustsTheStack() throws {
    let limit = JSONDocument.maximumDepth
    _ = try Self.reads(String(repeating: "[", count: limit) + String(repeating: "]", count: limit))
    let deeper = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
    #expect(Self.refusal(deeper)?.problem == "the values nest deeper than 512 levels")
    #expect(Self.refusal(String(repeating: "[", count: 100_000))?.problem == "the values nest deeper than 512 levels")
  }

  @Test func aWrongShapeNamesItsPath() throws {
    func failure(_ text: String) throws -> String? {
      let root = try Self.reads(text)
      do {
        _ = try root.required("teams", as: [ShapeTeam].self)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(try failure(#"{"teams":[{"name":"A"},{"name":"B","score":null}]}"#) == nil)
    #expect(try failure(#"{"teams":[{"name":"A"},{"score":2}]}"#) == "missing key 'name' at .teams[1]")
    #expect(try failure(#"{"teams":[{"name":"A"},{"name":null}]}"#) == "missing key 'name' at .teams[1]")
    #expect(
      try failure(#"{"teams":[{"name":"A","score":"2"}]}"#)
        == "expected a whole number at .teams[0].score, found a string")
    #expect(try failure(#"{"teams":{"name":"A"}}"#) == "expected an array at .teams, found an object")
    #expect(try failure(#"{"team":[]}"#) == "missing key 'teams' at the top level")
    #expect(try failure(#"[1]"#) == "expected an object at the top level, found an array")
    #expect(try failure(#"{"teams":[7]}"#) == "expected an object at .teams[0], found a number")
    let odd = try Self.reads(#"{"a b":{"c":[0,{"d":1}]}}"#)
    #expect(odd["a b"]?["c"]?.elements.map(\.path) == [#"["a b"].c[0]"#, #"["a b"].c[1]"#])
  }

  @Test func aStringThatIsNotUTF8IsAShapeErrorNotAWrongText() throws {
    var bytes = Array(#"{"name":"caf"#.utf8)
    bytes += [0xE9]
    bytes += Array(#"","ok":"café"}"#.utf8)
    let root = try JSONDocument(bytes: bytes).root
    #expect(root["name"]?.string == "caf\u{FFFD}")
    #expect(root["name"]?.validString == nil && root["ok"]?.validString == "café")
    #expect(throws: JSONShapeError.self) { try root.required("name", as: String.self) }
    do {
      _ = try root.required("name", as: String.self)
    } catch {
      #expect(error.description == "a string that is not UTF-8 at .name")
    }
  }

  /// `required` and `optional` read strings, whole numbers and scalars straight off the tape; what
  /// they give (or the error they throw) must be what the node's own reading gives.
  @Test func fieldsReadOffTheTapeAsTheNodeReadsThem() throws {
    let values = [
      #""plain""#, #""esc\u00e9\n""#, #""""#, "12", "-7", "0", "-0", "12.0", "1.5", "1e2", "123456789012345678",
      "1234567890123456789012", "true", "null", "[1]", "{}",
    ]
    func same<T: JSONReadable & Equatable>(_ type: T.Type, _ node: JSONNode, _ text: String) {
      let viaNode = Result { () throws(JSONShapeError) in try T(json: node) }
      let viaField = Result { () throws(JSONShapeError) in try node.document.root.optional("v", as: T.self) }
      // A null member is no value for `optional`, whatever the node's own reading makes of it.
      if node.isNull { return #expect((try? viaField.get()) == .some(nil), "\(T.self) of null") }
      switch (viaNode, viaField) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(T.self) of \(text)")
      case (.failure(let a), .failure(let b)): #expect(a.description == b.description, "\(T.self) of \(text)")
      default: Issue.record("\(T.self) of \(text): \(viaNode) against \(viaField)")
      }
    }
    for text in values {
      let node = try #require(try Self.reads(#"{"v":"# + text + "}")["v"])
      same(String.self, node, text)
      same(Int.self, node, text)
      same(JSONScalar.self, node, text)
    }
    var bytes = Array(#"{"v":"caf"#.utf8)
    bytes += [0xE9] + Array(#""}"#.utf8)
    let invalid = try #require(try JSONDocument(bytes: bytes).root["v"])
    same(String.self, invalid, "invalid UTF-8")
    same(JSONScalar.self, invalid, "invalid UTF-8")
  }

  @Test func scalarsThatComeAsNumbersOrStringsReadAsJSONDecoderReadsThem() throws {
    let texts = ["12", "\"12\"", "1.5", "-3", "true", "false", "null", "\"\"", "12.0", "[1]", "{}", "1e2"]
    for text in texts {
      let ours = try JSONScalar(json: try Self.reads(text))
      let theirs = try JSONDecoder().decode(JSONScalar.self, from: Data(text.utf8))
      #expect(ours == theirs, "\(text)")
    }
  }
}

/// A reader for `aWrongShapeNamesItsPath`.
private struct ShapeTeam: JSONReadable {
  var name: String
  var score: Int?

  init(json: borrowing JSONNode) throws(JSONShapeError) {
    name = try json.required("name")
    score = try json.optional("score")
  }
}
