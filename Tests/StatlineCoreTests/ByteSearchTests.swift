import Foundation
import StatlineCore
import Testing

/// The byte search every page goes through (walls, login forms, titles, entity declarations):
/// checked against a plain scan wherever the needle can sit.
@Suite struct ByteSearchTests {
  func naive(_ needle: [UInt8], _ hay: [UInt8]) -> Int? {
    guard !needle.isEmpty, hay.count >= needle.count else { return nil }
    return (0...(hay.count - needle.count)).first { Array(hay[$0..<($0 + needle.count)]) == needle }
  }

  @Test func findsTheFirstPlaceAnywhereAsAPlainScanDoes() {
    let needles = ["type=\"password\"", "<!ENTITY", "x", "aab", "<title>", "zz"]
    let hays = [
      "", "x", "type=\"password\"", "<input type=\"text\"><input type=\"password\">", "aaab aab aab",
      "<!ENTIT <!ENTITY a", "zzz", String(repeating: "type=\"passwor", count: 50) + "type=\"password\"",
      "<TITLE>no</TITLE><title>yes</title>",
    ]
    for needle in needles {
      for hay in hays {
        let found = ByteSearch.offset(of: Array(needle.utf8), in: Data(hay.utf8))
        #expect(found == naive(Array(needle.utf8), Array(hay.utf8)), "\(needle) in \(hay)")
      }
    }
    #expect(ByteSearch.offset(of: [], in: Data("abc".utf8)) == nil)
  }

  @Test func readsTheTitleOfASliceOfABody() {
    let body = Data("<html><head><TITLE> NCAA Statistics </TITLE></head></html>".utf8)
    #expect(ByteSearch.title(of: body.prefix(1 << 16)) == "NCAA Statistics")
    #expect(ByteSearch.title(of: Data("<html></html>".utf8)) == nil)
  }
}
