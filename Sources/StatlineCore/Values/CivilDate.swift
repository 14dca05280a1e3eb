/// Days since 1970 → the proleptic Gregorian date, by arithmetic (H. Hinnant's
/// `civil_from_days`): the canonical merge names games by day, and the NCAA feeds' epochs become
/// ISO 8601 dates, on every poll, where `Calendar` would cost more than the page.
public enum CivilDate {
  /// `YYYY-MM-DD` of `days` since 1970-01-01.
  public static func date(days: Int) -> String {
    let (year, month, day) = fields(days: days)
    guard (0...9999).contains(year) else { return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) }
    // Ten digits and dashes written in place: one string, not five joined (every game of a
    // board is dated on every poll).
    return String(unsafeUninitializedCapacity: 10) { buffer in
      write(year: year, month: month, day: day, into: buffer)
      return 10
    }
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` of `seconds` since 1970 (whole seconds, in UTC).
  public static func instant(seconds: Int) -> String {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    let (year, month, day) = fields(days: days)
    guard (0...9999).contains(year) else {
      return date(days: days) + "T" + padded(time / 3_600, 2) + ":" + padded(time / 60 % 60, 2) + ":"
        + padded(time % 60, 2) + "Z"
    }
    return String(unsafeUninitializedCapacity: 20) { buffer in
      write(year: year, month: month, day: day, into: buffer)
      buffer[10] = UInt8(ascii: "T")
      write(time / 3_600, 2, into: buffer, at: 11)
      buffer[13] = UInt8(ascii: ":")
      write(time / 60 % 60, 2, into: buffer, at: 14)
      buffer[16] = UInt8(ascii: ":")
      write(time % 60, 2, into: buffer, at: 17)
      buffer[19] = UInt8(ascii: "Z")
      return 20
    }
  }

  /// `YYYY-MM-DD` in the buffer's first ten bytes.
  @inline(__always)
  private static func write(year: Int, month: Int, day: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
    write(year, 4, into: buffer, at: 0)
    buffer[4] = UInt8(ascii: "-")
    write(month, 2, into: buffer, at: 5)
    buffer[7] = UInt8(ascii: "-")
    write(day, 2, into: buffer, at: 8)
  }

  /// `value` (0 up to `width` digits) as `width` ASCII digits, zero-padded, at `offset`.
  @inline(__always)
  private static func write(_ value: Int, _ width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int)
  {
    var rest = value
    for position in stride(from: offset + width - 1, through: offset, by: -1) {
      buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
  }

  /// Year, month (1–12) and day (1–31) of `days` since 1970.
  public static func fields(days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (`days_from_civil`, the inverse of
  /// `fields(days:)`).
  public static func days(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.utf8.count >= width ? text : String(repeating: "0", count: width - text.utf8.count) + text
  }
}
