/// A tape string's text: its bytes as they stand when it has no escapes, decoded otherwise
/// (`\uD83C\uDFD1` pairs joined; a lone surrogate becomes U+FFFD, as invalid UTF-8 does).
@usableFromInline
enum JSONStrings {
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: JSONTapeEntry) -> String {
    decode(bytes, entry, strict: false)!
  }

  /// Strict: nil when the bytes are not UTF-8.
  @usableFromInline
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: JSONTapeEntry, strict: Bool) -> String? {
    let raw = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
    guard entry.flag else {
      return strict && !isASCII(raw) ? String(validating: raw, as: UTF8.self) : String(decoding: raw, as: UTF8.self)
    }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var at = 0
    while at < raw.count {
      let byte = raw[at]
      guard byte == UInt8(ascii: "\\") else {
        out.append(byte)
        at += 1
        continue
      }
      // The scanner checked every escape, so each is complete here.
      let code = raw[at + 1]
      at += 2
      switch code {
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = unit(raw, at)
        at += 4
        if (0xD800...0xDBFF).contains(scalar), at + 5 < raw.count, raw[at] == UInt8(ascii: "\\"),
          raw[at + 1] == UInt8(ascii: "u"), case let low = unit(raw, at + 2), (0xDC00...0xDFFF).contains(low)
        {
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          at += 6
        }
        append(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
      default: out.append(code)  // " \ /
      }
    }
    return strict ? String(validating: out, as: UTF8.self) : String(decoding: out, as: UTF8.self)
  }

  /// Whether every byte is ASCII, eight at a time (ASCII is valid UTF-8, so it needs no other check:
  /// the generic `String(validating:)` costs more than the copy).
  static func isASCII(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    var at = 0
    let count = raw.count
    if let base = UnsafeRawPointer(raw.baseAddress) {
      while at + 8 <= count {
        if base.loadUnaligned(fromByteOffset: at, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
        at += 8
      }
    }
    while at < count {
      if raw[at] >= 0x80 { return false }
      at += 1
    }
    return true
  }

  /// A number without a fraction or an exponent, of at most 18 digits (any `Int` holds it); nil
  /// for any other number.
  @usableFromInline
  static func plainInt(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: JSONTapeEntry) -> Int? {
    guard entry.kind == .number, !entry.flag, Int(entry.end &- entry.start) <= 18 else { return nil }
    var at = Int(entry.start)
    let negative = bytes[at] == UInt8(ascii: "-")
    if negative { at += 1 }
    var value = 0
    while at < Int(entry.end) {
      value = value &* 10 &+ Int(bytes[at] &- UInt8(ascii: "0"))
      at += 1
    }
    return negative ? -value : value
  }

  private static func unit(_ raw: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 << 4 | (JSONScanner.hex(raw[at + $1]) ?? 0) }
  }

  private static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    out.append(contentsOf: UTF8.encode(scalar)!)
  }
}
