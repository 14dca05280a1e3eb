import Foundation
import StatlineCore

/// The `Date` header's value (RFC 9110's IMF-fixdate, `Tue, 24 Nov 2026 20:14:16 GMT`), made at
/// most once a second.
final class HTTPDateText: Sendable {
  private let cached = Locked<(second: Int, text: String)>((-1, ""))

  func text(at date: Date) -> String {
    let second = Int(date.timeIntervalSince1970.rounded(.down))
    return cached.withLock { cached in
      if cached.second != second { cached = (second, Self.format(second)) }
      return cached.text
    }
  }

  static func format(_ second: Int) -> String {
    var time = time_t(second)
    var parts = tm()
    gmtime_r(&time, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
