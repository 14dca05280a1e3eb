import Foundation
import StatlineCore
import StatlineFixtures

/// The real saved pages of `../shared/fixtures/real`, for tests that assert their key facts.
///
/// Tests that need them use `.enabled(if: RealPages.available)`; where the variable is unset
/// they are skipped (and say so), where it is set but the folder is missing they fail.
public enum RealPages {
  public static var folder: URL? { RealFixtures.fromEnvironment().folder }

  /// True when `STATLINE_REAL_FIXTURES` is set (a missing folder then fails loudly in `data`).
  public static var available: Bool { folder != nil }

  /// The bytes of a real page, by its path below the folder.
  public static func data(_ relative: String) throws -> Data {
    guard let folder else {
      throw StatlineError(.io, "\(RealFixtures.variable) is not set", hint: "run the tests with scripts/test")
    }
    return try Data(contentsOf: folder.appendingPathComponent(relative))
  }

  /// A real page as fetched from `url`.
  public static func page(_ relative: String, url: String) throws -> Page {
    Page(url: url, body: try data(relative), file: relative)
  }
}
