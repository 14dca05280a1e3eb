import Foundation

/// Compact JSON with sorted keys, byte for byte what `JSONEncoder` writes with `.sortedKeys`
/// (and `.withoutEscapingSlashes` when `escapesSlashes` is false), at a fraction of its cost: a
/// live poll encodes its game twice (the record and the target's state), and Foundation's
/// encoder was 5 % of a live cycle's CPU.
///
/// Keys sort by their UTF-8 bytes, doubles print as Swift's `description` without a trailing
/// `.0`, strings escape `"`, `\`, the C0 controls (and `/` when asked), as Foundation does; a
/// test holds the two to the same bytes on every real page's records and on random values.
/// Values Foundation encodes in its own way (`Data`, `URL`, `Decimal`, non-finite numbers) are
/// handed to `JSONEncoder`, so nothing is ever written differently.
public struct SortedJSON: Sendable {
  public var escapesSlashes: Bool

  public init(escapesSlashes: Bool) {
    self.escapesSlashes = escapesSlashes
  }

  public func encode<Value: Encodable>(_ value: Value) throws -> Data {
    if let writable = value as? any SortedJSONWritable {
      var writer = SortedJSONWriter(escapesSlashes: escapesSlashes)
      writable.write(to: &writer)
      return Data(writer.bytes)
    }
    let encoder = SortedJSONEncoder()
    let node: SortedJSONNode
    do {
      try value.encode(to: encoder)
      node = encoder.node ?? .object(SortedJSONObject())
    } catch is SortedJSONEncoder.Unsupported {
      let fallback = JSONEncoder()
      fallback.outputFormatting = escapesSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
      return try fallback.encode(value)
    }
    var writer = SortedJSONWriter(escapesSlashes: escapesSlashes)
    writer.write(node)
    return Data(writer.bytes)
  }
}

/// A value on its way to JSON.
enum SortedJSONNode {
  case null
  case bool(Bool)
  /// A number, as its JSON text.
  case number(String)
  case string(String)
  case array(SortedJSONArray)
  case object(SortedJSONObject)
  /// What a nested encoder (`superEncoder`) wrote, read when the whole is written.
  case encoder(SortedJSONEncoder)
  /// A value that writes itself (`SortedJSONWritable`): a game in a target's state.
  case writable(any SortedJSONWritable)
}

final class SortedJSONObject {
  var entries: [(key: String, value: SortedJSONNode)] = []
}

final class SortedJSONArray {
  var items: [SortedJSONNode] = []
}

/// Writes a node tree as compact JSON, keys sorted by their UTF-8 bytes (the last of equal keys wins).
struct SortedJSONWriter {
  let escapesSlashes: Bool
  var bytes: [UInt8] = []

  init(escapesSlashes: Bool) {
    self.escapesSlashes = escapesSlashes
    bytes.reserveCapacity(1024)
  }

  mutating func write(_ node: SortedJSONNode) {
    switch node {
    case .null: bytes.append(contentsOf: "null".utf8)
    case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
    case .number(let text): bytes.append(contentsOf: text.utf8)
    case .string(let text): write(string: text)
    case .encoder(let encoder): write(encoder.node ?? .object(SortedJSONObject()))
    case .writable(let value): value.write(to: &self)
    case .array(let array):
      bytes.append(UInt8(ascii: "["))
      for (index, item) in array.items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(item)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      bytes.append(UInt8(ascii: "{"))
      var entries = object.entries
      // Stable, so that of equal keys the last written comes last and is the one kept.
      if !Self.isSorted(entries) {
        entries = entries.enumerated().sorted { a, b in
          a.element.key == b.element.key
            ? a.offset < b.offset : a.element.key.utf8.lexicographicallyPrecedes(b.element.key.utf8)
        }.map(\.element)
      }
      var first = true
      for (index, entry) in entries.enumerated() {
        if index + 1 < entries.count && entries[index + 1].key == entry.key { continue }
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        write(string: entry.key)
        bytes.append(UInt8(ascii: ":"))
        write(entry.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Strictly ascending keys: nothing to sort, no key twice.
  private static func isSorted(_ entries: [(key: String, value: SortedJSONNode)]) -> Bool {
    entries.indices.dropFirst().allSatisfy { entries[$0 - 1].key.utf8.lexicographicallyPrecedes(entries[$0].key.utf8) }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  mutating func write(string: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = string
    text.withUTF8 { utf8 in
      var start = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapesSlashes) else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22, 0x5C, 0x2F: bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
          bytes.append(contentsOf: "u00".utf8)
          bytes.append(Self.hex[Int(byte >> 4)])
          bytes.append(Self.hex[Int(byte & 0xF)])
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
