/// A play's text as bytes, trimmed of spaces and tabs, with its team token replaced by the byte
/// `0x01` (written `\u{1}` in the grammar's literals): team codes hold spaces ("NORTH CA"), so
/// they are found first, after " by " or " on ", and names split cleanly around them.
///
/// The grammar reads hundreds of plays per page; it works on these bytes and makes strings only
/// for what it returns. The bytes are in storage the caller lends for one reading
/// (`LacrossePlayText.read` lends a stack buffer): a marked text never outlives it.
struct MarkedPlayText {
  private let storage: UnsafeMutableBufferPointer<UInt8>
  private(set) var count: Int

  /// `text` trimmed and copied into `storage` (at least as long), then its team token marked.
  init(_ text: UnsafeBufferPointer<UInt8>, in storage: UnsafeMutableBufferPointer<UInt8>, teams: [String]) {
    var start = 0
    var end = text.count
    while start < end, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
    while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
    self.storage = storage
    count = UnsafeMutableBufferPointer(rebasing: storage[..<(end - start)]).initialize(
      fromContentsOf: text[start..<end])
    mark(teams)
  }

  /// The text's bytes (the team token a single `0x01`).
  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: storage[..<count]) }

  /// The text as a string (with the team token still marked).
  var text: String { String(decoding: bytes, as: UTF8.self) }

  // MARK: Marking the team token

  /// The first team (in the order given) found after " by " then " on ": followed by a space
  /// anywhere, or else at the very end (optionally before a period). Only that token is replaced.
  /// The markers are found where they lie, first to last, and searched again per team in that
  /// span: no list of them is made per play (its allocation was most of marking a play).
  private mutating func mark(_ teams: [String]) {
    var first = -1
    var last = -1
    var index = 0
    // The spaces found eight bytes at a time, and the four bytes at each compared with " by " and
    // " on " as one word (a test of each byte, in a call per place, was a fifth of reading a
    // play's text).
    if let base = UnsafeRawPointer(storage.baseAddress) {
      let by: UInt32 = 0x2079_6220  // " by ", its first byte lowest
      let on: UInt32 = 0x206E_6F20  // " on "
      func check(_ at: Int) {
        let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
        if word == by || word == on {
          if first < 0 { first = at }
          last = at
        }
      }
      let ones: UInt64 = 0x0101_0101_0101_0101
      while index + 8 <= count {
        // A space's byte XOR 0x20 is zero: its high bit flagged (exact for the lowest; one above
        // a real one may be flagged too, and is checked like any other).
        let spaced = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ (ones &* 0x20)
        var spaces = (spaced &- ones) & ~spaced & (ones &* 0x80)
        while spaces != 0 {
          let at = index + spaces.trailingZeroBitCount >> 3
          if at + 4 <= count { check(at) }
          spaces &= spaces &- 1
        }
        index += 8
      }
      while index + 4 <= count {
        check(index)
        index += 1
      }
    }
    guard first >= 0 else { return }
    for var team in teams where !team.isEmpty {
      let found = team.withUTF8 { team -> Range<Int>? in
        // After " by ", then after " on ".
        guard
          let start = tokenStart(team, on: false, markers: first...last)
            ?? tokenStart(team, on: true, markers: first...last)
        else { return nil }
        return start..<(start + team.count)
      }
      if let found {
        // The token becomes one byte, the rest moved up behind it.
        storage[found.lowerBound] = 0x01
        let tail = count - found.upperBound
        if tail > 0, let base = storage.baseAddress {
          (base + found.lowerBound + 1).update(from: base + found.upperBound, count: tail)
        }
        count -= found.count - 1
        return
      }
    }
  }

  /// Whether " by " (false) or " on " (true) starts at `index`; nil for neither.
  private func marker(at index: Int) -> Bool? {
    guard index + 4 <= bytes.count, bytes[index] == 0x20, bytes[index + 3] == 0x20 else { return nil }
    if bytes[index + 1] == UInt8(ascii: "b"), bytes[index + 2] == UInt8(ascii: "y") { return false }
    if bytes[index + 1] == UInt8(ascii: "o"), bytes[index + 2] == UInt8(ascii: "n") { return true }
    return nil
  }

  private func tokenStart(_ team: UnsafeBufferPointer<UInt8>, on: Bool, markers: ClosedRange<Int>) -> Int? {
    var followedByTeam: Int?
    var lastMatch: Int?
    for index in markers where marker(at: index) == on {
      let start = index + 4
      guard matches(team, at: start) else { continue }
      if followedByTeam == nil { followedByTeam = start }
      lastMatch = start
      if start + team.count < bytes.count, bytes[start + team.count] == 0x20 { return start }
    }
    // No "marker TEAM " anywhere: the token may end the text ("… by IONA." / "… by IONA").
    guard let first = followedByTeam, let last = lastMatch else { return nil }
    let end = last + team.count
    let atEnd = end == bytes.count || (end + 1 == bytes.count && bytes[end] == UInt8(ascii: "."))
    return atEnd ? first : nil
  }

  private func matches(_ team: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
    guard start + team.count <= bytes.count else { return false }
    for offset in 0..<team.count where bytes[start + offset] != team[offset] { return false }
    return true
  }

  // MARK: Reading

  func starts(with literal: StaticString, at index: Int = 0) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let pointer = literal.utf8Start
    for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
    return true
  }

  func equals(_ literal: StaticString) -> Bool {
    bytes.count == literal.utf8CodeUnitCount && starts(with: literal)
  }

  func ends(_ range: Range<Int>, with literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    return range.count >= count && starts(with: literal, at: range.upperBound - count)
  }

  /// The index after `prefix` when the text starts with it.
  func after(_ prefix: StaticString) -> Int? {
    starts(with: prefix) ? prefix.utf8CodeUnitCount : nil
  }

  /// What follows `prefix`, without one final period.
  func rest(after prefix: StaticString) -> Range<Int>? {
    guard let start = after(prefix) else { return nil }
    let end = bytes.last == UInt8(ascii: ".") ? bytes.count - 1 : bytes.count
    return start..<max(start, end)
  }

  /// The first index of `needle` within `range`.
  func find(_ needle: StaticString, in range: Range<Int>) -> Int? {
    let count = needle.utf8CodeUnitCount
    guard range.count >= count else { return nil }
    let first = needle.utf8Start[0]
    var index = range.lowerBound
    while index + count <= range.upperBound {
      if bytes[index] == first, starts(with: needle, at: index) { return index }
      index += 1
    }
    return nil
  }

  func find(byte: UInt8, in range: Range<Int>) -> Int? {
    range.first { bytes[$0] == byte }
  }

  func isDigit(_ index: Int) -> Bool { index < bytes.count && bytes[index] &- 0x30 < 10 }

  func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

  /// A name in `range`, "First Last" (see `PersonName`).
  func person(_ range: Range<Int>) -> String {
    PersonName.normalized(UnsafeBufferPointer(rebasing: bytes[range]))
  }
}
