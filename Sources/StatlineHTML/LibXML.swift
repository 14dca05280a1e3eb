import CLibXML2
import Foundation

/// One-time libxml2 set-up. `xmlInitParser` must run once per process; `xmlCleanupParser` is
/// never called, because Foundation's XML support shares the same `libxml2.so.2`.
enum LibXML {
  static let initialized: Void = { xmlInitParser() }()

  /// Initializes the library and silences libxml2's per-thread error output on this thread
  /// (errors reach us through return values; Swift tasks hop threads, so do it every time).
  static func prepareThread() {
    _ = initialized
    statline_silenceErrors()
  }

  /// Tolerant HTML: recover from tag soup, report nothing, never touch the network, add no
  /// implied html/body elements. `XML_PARSE_HUGE` because without it libxml2 2.9 silently drops
  /// everything nested deeper than 256 levels; `DocumentLimits.maximumDepth` refuses such pages
  /// loudly instead.
  static let htmlOptions = Int32(
    HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
      | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | HTML_PARSE_NOIMPLIED.rawValue
      | XML_PARSE_HUGE.rawValue)

  /// Copies a libxml2-owned string and frees it.
  static func consume(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
    guard let pointer else { return nil }
    defer { statline_xmlFree(pointer) }
    return String(cString: pointer)
  }

  /// Copies a string that libxml2 still owns.
  /// Whether a libxml2 name equals `name` (compared as C strings, nothing allocated).
  static func equals(_ pointer: UnsafePointer<xmlChar>?, _ name: String) -> Bool {
    guard let pointer else { return false }
    return name.withCString { strcmp(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self), $0) == 0 }
  }

  static func borrow(_ pointer: UnsafePointer<xmlChar>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
  }
}
