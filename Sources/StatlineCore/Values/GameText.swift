import Foundation

/// Reading the values sites print: numbers, US dates, clocks, period names, slugs. Shared by
/// the plugins (StatCrew XML, stats.ncaa.org, ncaa.com) so they agree on the model's forms.
public enum GameText {
  /// The largest magnitude of a number a page prints that is read (a score, a stat, an
  /// attendance, a period): past it a cell is corrupt, and is not read (nil), so that no sum or
  /// product of what a page says can overflow and stop the process.
  public static let largest = 999_999_999

  /// A whole number as printed (spaces around it allowed), within ±`largest`.
  public static func int(_ text: String?) -> Int? {
    guard let text, !text.isEmpty else { return nil }
    if let value = Int(text) { return bounded(value) }
    let trimmed = FastText.trimmed(text)
    return trimmed.isEmpty ? nil : Int(trimmed).flatMap(bounded)
  }

  /// `value` where it is within ±`largest`, else nil.
  public static func bounded(_ value: Int) -> Int? { value >= -largest && value <= largest ? value : nil }

  /// A count printed with thousands separators ("1,023", "5,049"); nil for anything else.
  public static func count(_ text: String?) -> Int? {
    guard let text else { return nil }
    let digits = text.filter { $0 != "," && !$0.isWhitespace }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII) else { return nil }
    return Int(digits).flatMap(bounded)
  }

  /// `M/D/YYYY` (or `MM/DD/YY`) → `YYYY-MM-DD`.
  public static func date(_ text: String?) -> String? {
    if let text, let parts = plainDate(text) { return date(month: parts.0, day: parts.1, year: parts.2) }
    guard let parts = text?.trimmingCharacters(in: .whitespaces).split(separator: "/"), parts.count == 3,
      let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2])
    else { return nil }
    return date(month: month, day: day, year: year)
  }

  private static func date(month: Int, day: Int, year: Int) -> String? {
    guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    let year = year < 100 ? year + 2000 : year
    let digits = String(year)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-" + FastText.twoDigits(month) + "-"
      + FastText.twoDigits(day)
  }

  /// `M/D/YYYY` of ASCII digits and exactly two slashes, read from the bytes (Foundation's
  /// trimming was most of reading a date); nil leaves anything else to the general reading.
  private static func plainDate(_ text: String) -> (Int, Int, Int)? {
    var copy = text
    return copy.withUTF8 { bytes -> (Int, Int, Int)? in
      var parts = (0, 0, 0)
      var part = 0
      var digits = 0
      for byte in bytes {
        if byte == UInt8(ascii: "/") {
          guard digits > 0, part < 2 else { return nil }
          part += 1
          digits = 0
          continue
        }
        guard byte &- UInt8(ascii: "0") < 10, digits < 9 else { return nil }
        let value = Int(byte &- UInt8(ascii: "0"))
        switch part {
        case 0: parts.0 = parts.0 * 10 + value
        case 1: parts.1 = parts.1 * 10 + value
        default: parts.2 = parts.2 * 10 + value
        }
        digits += 1
      }
      return part == 2 && digits > 0 ? parts : nil
    }
  }

  /// `M:SS` or `MM:SS` → `MM:SS`; anything else nil.
  public static func clock(_ text: String?) -> String? {
    guard let text else { return nil }
    if let fast = plainClock(text) { return fast }
    let parts = FastText.trimmed(text).split(separator: ":")
    guard parts.count == 2,
      let minutes = Int(parts[0]), let seconds = Int(parts[1]), (0..<60).contains(seconds), (0..<1000).contains(minutes)
    else { return nil }
    return FastText.twoDigits(minutes) + ":" + FastText.twoDigits(seconds)
  }

  /// The common shape, `M:SS` / `MM:SS` and nothing else, read from the bytes (every play has a
  /// clock); nil leaves anything else to the general reading.
  private static func plainClock(_ text: String) -> String? {
    var copy = text
    let digits = copy.withUTF8 { bytes -> Int in
      guard bytes.count == 4 || bytes.count == 5, bytes[bytes.count - 3] == UInt8(ascii: ":"),
        bytes[bytes.count - 2] &- 0x30 < 6, bytes[bytes.count - 1] &- 0x30 < 10,
        bytes[0..<(bytes.count - 3)].allSatisfy({ $0 &- 0x30 < 10 })
      else { return 0 }
      return bytes.count - 3
    }
    switch digits {
    case 2: return text
    case 1: return "0" + text
    default: return nil
    }
  }

  /// `MM:SS` → seconds.
  public static func seconds(_ text: String?) -> Int? {
    guard let clock = clock(text) else { return nil }
    let parts = clock.split(separator: ":").compactMap { Int($0) }
    return parts[0] * 60 + parts[1]
  }

  /// Innings pitched as printed ("6.2": six innings and two outs; the digit after the point
  /// counts outs, not tenths) → outs (20); nil for a fraction that is not 0, 1 or 2 outs.
  public static func outs(innings: String?) -> Int? {
    guard let innings, !innings.isEmpty else { return nil }
    let parts = innings.split(separator: ".", omittingEmptySubsequences: false)
    guard let whole = Int(parts[0]), whole >= 0, parts.count <= 2 else { return nil }
    let extra = parts.count == 2 ? Int(parts[1]) ?? -1 : 0
    guard (0...2).contains(extra) else { return nil }
    return whole * 3 + extra
  }

  /// "1st" … "4th", then "OT", "2OT", …
  public static func periodLabel(_ period: Int, _ regulation: Int) -> String {
    if period > regulation {
      let overtime = period - regulation
      return overtime == 1 ? "OT" : "\(overtime)OT"
    }
    switch period {
    case 1: return "1st"
    case 2: return "2nd"
    case 3: return "3rd"
    default: return "\(period)th"
    }
  }

  /// "NORTH CA" → "north-ca".
  public static func slug(_ text: String) -> String {
    text.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
  }

}
