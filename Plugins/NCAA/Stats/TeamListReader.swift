import StatlineCore
import StatlineHTML

/// Reads a team list in one pass, without a tree: the first link carrying a sport code (the
/// sport tabs), and every link to a team page outside the page's `nav` and `header`, with its
/// text, in document order.
struct TeamListReader: HTMLStreamReader {
  private(set) var sportTab: String?
  private(set) var links: [(href: String, text: String)] = []
  /// Per open element, whether it is a `nav` or `header`.
  private var frames: [Bool] = []
  private var excluding = 0
  private var captures = FragmentCaptures()

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    let excludes = element == "nav" || element == "header"
    if excludes { excluding += 1 }
    frames.append(excludes)
    if element == "a", let href = attributes["href"] {
      if sportTab == nil, href.contains("sport_code=") { sportTab = String(decoding: href.bytes, as: UTF8.self) }
      if excluding == 0, href.hasPrefix("/teams/") || href.hasPrefix("/team/") {
        links.append((String(decoding: href.bytes, as: UTF8.self), ""))
        captures.begin(links.count - 1)
      }
    }
    captures.start(element, attributes: attributes)
  }

  mutating func end(_ element: XMLName) {
    captures.end { link, root in links[link].text = root.text }
    if frames.popLast() == true { excluding -= 1 }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }
}
