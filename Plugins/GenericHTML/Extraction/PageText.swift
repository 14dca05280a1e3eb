import Foundation
import StatlineCore

/// Byte-level "does the page contain this text" checks, for `match.contains` (no decoding, so
/// a page in any ASCII-compatible encoding is searched as it is).
enum PageText {
  static func missing(_ needles: [String], in page: Page) -> [String] {
    needles.filter { page.body.range(of: Data($0.utf8)) == nil }
  }

  static func containsAll(_ needles: [String], in page: Page) -> Bool {
    missing(needles, in: page).isEmpty
  }
}
