import Foundation

/// An HTTP-date (RFC 9110 §5.6.7) read by hand, as `Retry-After` carries one: the IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a recipient must still accept
/// (RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`). No
/// `DateFormatter`: it costs a formatter per header, and Foundation's on Linux leaks a character
/// set the first time one parses (found by fuzzing `fcm-answer`).
public enum HTTPDate {
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

  public static func parse(_ text: String) -> Date? {
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    guard let first = words.first else { return nil }
    if first.hasSuffix(",") {
      let day = String(first.dropLast())
      if days.contains(day), words.count == 6, ["GMT", "UTC"].contains(words[5]), words[1].count == 2,
        words[3].count == 4
      {
        // IMF-fixdate.
        return date(year: Int(words[3]), month: words[2], day: Int(words[1]), time: words[4])
      }
      if longDays.contains(day), words.count == 4, ["GMT", "UTC"].contains(words[3]) {
        // RFC 850: a two-digit year, the nearest century to now's (70 and up: the 1900s).
        let parts = words[1].split(separator: "-").map(String.init)
        guard parts.count == 3, parts[2].count == 2, let short = Int(parts[2]) else { return nil }
        return date(year: short + (short >= 70 ? 1900 : 2000), month: parts[1], day: Int(parts[0]), time: words[2])
      }
      return nil
    }
    // asctime.
    guard days.contains(first), words.count == 5, words[4].count == 4 else { return nil }
    return date(year: Int(words[4]), month: words[1], day: Int(words[2]), time: words[3])
  }

  static func date(year: Int?, month name: String, day: Int?, time: String) -> Date? {
    let clock = time.split(separator: ":").map { $0.count == 2 ? Int($0) : nil }
    guard let year, (1...9999).contains(year), let month = months.firstIndex(of: name).map({ $0 + 1 }), let day,
      clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
      (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
      (1...length(ofMonth: month, in: year)).contains(day)
    else { return nil }
    let seconds = ((daysSinceEpoch(year: year, month: month, day: day) * 24 + hour) * 60 + minute) * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  static func length(ofMonth month: Int, in year: Int) -> Int {
    if month == 2 { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28 }
    return [4, 6, 9, 11].contains(month) ? 30 : 31
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
  /// `days_from_civil`).
  static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
