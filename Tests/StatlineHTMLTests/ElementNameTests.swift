import Foundation
import StatlineCore
import StatlineHTML
import Testing

/// Name walks (no XPath) must find exactly what XPath finds.
@Suite struct ElementNameTests {
  @Test func walksFindWhatXPathFinds() throws {
    var pages = [
      Data(
        """
        <html><body><table><tr><td>1</td><TD>2</TD></tr></table><div><table><tbody><tr><td>x</td></tr></tbody>
        </table><span><a href="/teams/1">A</a></span></div><custom-el>c</custom-el></body></html>
        """.utf8)
    ]
    if let root = ProcessInfo.processInfo.environment["STATLINE_REAL_FIXTURES"] {
      for folder in ["ncaa-stats", "statbroadcast"] {
        let directory = URL(fileURLWithPath: root).appendingPathComponent(folder)
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where file.hasSuffix(".html") {
          pages.append(try Data(contentsOf: directory.appendingPathComponent(file)))
        }
      }
    }
    for page in pages {
      let document = try Document.html(page)
      let root = try #require(document.root)
      for name in ["table", "td", "tr", "a", "div", "span", "custom-el", "nothing"] {
        let counted = try document.string(xpath: "count(//\(name))")
        #expect(Double(root.descendants(named: name).count) == Double(counted), "\(name)")
        #expect((root.firstDescendant(named: name) == nil) == (counted == "0"), "\(name)")
      }
    }
  }
}
