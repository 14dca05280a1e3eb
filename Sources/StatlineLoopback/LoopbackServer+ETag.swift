import Foundation
import StatlineCore

extension LoopbackServer {
  /// A page's strong ETag, as the fake sites send it: its FNV-1a hash, quoted.
  public static func etag(_ page: String) -> String {
    "\"\(String(ContentHash.fnv1a(Data(page.utf8)), radix: 16))\""
  }
}
