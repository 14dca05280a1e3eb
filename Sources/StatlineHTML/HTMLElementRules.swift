import CLibXML2
import Foundation

/// What libxml2's HTML parser knows of the elements it treats specially, as `HTMLTokenizer`
/// needs it: which start tags imply the end of which open elements, which end tags may close
/// which, and which elements are empty. The rules are read from the installed libxml2 where it
/// exposes them (`htmlAutoCloseTag`, `htmlTagLookup`); tests compare the rest with its parsing.
/// An element's number (`id`) is its place in `names`, plus one; 0 is any other element.
struct HTMLElementRules: @unchecked Sendable {
  /// The elements of HTML 4 (every element libxml2 has rules for) and of HTML 5, in a fixed
  /// order (their ids).
  static let names: [String] = [
    "a", "abbr", "acronym", "address", "applet", "area", "b", "base", "basefont", "bdo", "big", "blockquote", "body",
    "br", "button", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del", "dfn", "dir", "div", "dl",
    "dt", "em", "embed", "fieldset", "font", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "hr", "html", "i", "iframe", "img", "input", "ins", "isindex", "kbd", "label", "legend", "li", "link", "listing",
    "map", "menu", "meta", "noframes", "noscript", "object", "ol", "optgroup", "option", "p", "param", "plaintext",
    "pre", "q", "s", "samp", "script", "select", "small", "span", "strike", "strong", "style", "sub", "sup", "table",
    "tbody", "td", "textarea", "tfoot", "th", "thead", "title", "tr", "tt", "u", "ul", "var", "xmp", "article",
    "aside", "audio", "bdi", "canvas", "data", "datalist", "details", "dialog", "figcaption", "figure", "footer",
    "header", "hgroup", "keygen", "main", "mark", "meter", "nav", "nobr", "output", "picture", "progress", "rp", "rt",
    "ruby", "section", "source", "summary", "svg", "path", "template", "time", "track", "video", "wbr",
  ]

  /// The start tags that end an open element of the same name (libxml2's `htmlAutoCloseTag`
  /// answers every other pair, but not these).
  static let closeTheirOwn: Set<String> = [
    "a", "col", "colgroup", "form", "li", "option", "p", "tbody", "td", "th", "tr",
  ]

  /// How far an end tag reaches (libxml2's `htmlEndPriority`): it closes the open elements
  /// above its own only when none of them ranks higher. Others rank 100.
  static let endPriorities: [String: UInt8] = [
    "div": 150, "td": 160, "th": 160, "tr": 170, "thead": 180, "tbody": 180, "tfoot": 180, "table": 190,
    "head": 200, "body": 200, "html": 220,
  ]

  static let shared = HTMLElementRules()

  /// Names packed as little-endian bytes (up to 8; longer names use `longIds`) → id.
  private let shortIds: [UInt64: UInt8]
  private let longIds: [String: UInt8]
  /// `closes[new * count + old]`: a start tag `new` ends the open element `old`.
  private let closes: [Bool]
  private let priorities: [UInt8]
  private let empty: [Bool]
  /// Each element's name, NUL-terminated, for the events (allocated once, never freed).
  let cNames: [UnsafePointer<UInt8>]
  let count: Int

  static let html: UInt8 = id("html")
  static let head: UInt8 = id("head")
  static let body: UInt8 = id("body")
  static let p: UInt8 = id("p")
  static let meta: UInt8 = id("meta")
  static let script: UInt8 = id("script")
  static let style: UInt8 = id("style")

  private static func id(_ name: String) -> UInt8 { UInt8(names.firstIndex(of: name)! + 1) }

  private init() {
    _ = LibXML.initialized  // the rules are asked of libxml2
    let names = Self.names
    count = names.count + 1
    var shortIds: [UInt64: UInt8] = [:]
    var longIds: [String: UInt8] = [:]
    var cNames: [UnsafePointer<UInt8>] = [
      UnsafePointer(strdup("")!.withMemoryRebound(to: UInt8.self, capacity: 1) { $0 })
    ]
    for (index, name) in names.enumerated() {
      let id = UInt8(index + 1)
      if name.utf8.count <= 8 { shortIds[Self.pack(Array(name.utf8))] = id } else { longIds[name] = id }
      cNames.append(UnsafePointer(strdup(name)!.withMemoryRebound(to: UInt8.self, capacity: 1) { $0 }))
    }
    var closes = [Bool](repeating: false, count: count * count)
    for (newIndex, new) in names.enumerated() {
      guard let node = xmlNewNode(nil, new) else { continue }
      defer { xmlFreeNode(node) }
      for (oldIndex, old) in names.enumerated() {
        let closing = old == new ? Self.closeTheirOwn.contains(old) : htmlAutoCloseTag(nil, old, node) == 1
        closes[(newIndex + 1) * count + oldIndex + 1] = closing
      }
    }
    var priorities = [UInt8](repeating: 100, count: count)
    for (name, priority) in Self.endPriorities { priorities[Int(Self.id(name))] = priority }
    // Empty elements as libxml2's element table has them.
    var empty = [Bool](repeating: false, count: count)
    for (index, name) in names.enumerated() {
      empty[index + 1] =
        name.withCString { htmlTagLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
        .map { $0.pointee.empty != 0 } ?? false
    }
    self.shortIds = shortIds
    self.longIds = longIds
    self.closes = closes
    self.priorities = priorities
    self.empty = empty
    self.cNames = cNames
  }

  @inline(__always)
  static func pack(_ bytes: some Collection<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
      value |= UInt64(byte) << shift
      shift += 8
    }
    return value
  }

  /// The id of a lower-case name (0: an element without rules).
  func id(of name: some Collection<UInt8>) -> UInt8 {
    if name.count <= 8 { return shortIds[Self.pack(name)] ?? 0 }
    return longIds[String(decoding: name, as: UTF8.self)] ?? 0
  }

  /// The id of a lower-case name of up to 8 bytes, packed by `pack`.
  @inline(__always)
  func id(packed: UInt64) -> UInt8 { shortIds[packed] ?? 0 }

  @inline(__always)
  func starting(_ new: UInt8, closes old: UInt8) -> Bool {
    new != 0 && old != 0 && closes[Int(new) * count + Int(old)]
  }

  @inline(__always)
  func priority(_ id: UInt8) -> UInt8 { priorities[Int(id)] }

  @inline(__always)
  func isEmpty(_ id: UInt8) -> Bool { empty[Int(id)] }
}
