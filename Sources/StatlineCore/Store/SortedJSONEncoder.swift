import Foundation

/// The `Encoder` behind `SortedJSON`: it builds a small node tree that `SortedJSONWriter`
/// writes. One encoder per value being encoded; containers write into the node it holds. It
/// keeps no coding path (nothing it encodes can fail but the values it hands to `JSONEncoder`,
/// whose errors carry theirs).
final class SortedJSONEncoder: Encoder {
  /// A value Foundation encodes specially: `SortedJSON` hands the whole value to `JSONEncoder`.
  struct Unsupported: Error {}

  var node: SortedJSONNode?
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: SortedJSONObject
    if case .object(let existing) = node {
      object = existing
    } else {
      object = SortedJSONObject()
      node = .object(object)
    }
    return KeyedEncodingContainer(CanonicalKeyedContainer(object: object))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: SortedJSONArray
    if case .array(let existing) = node {
      array = existing
    } else {
      array = SortedJSONArray()
      node = .array(array)
    }
    return CanonicalUnkeyedContainer(array: array)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    CanonicalSingleValueContainer(encoder: self)
  }

  /// The node of any value: primitives directly, others through their `encode(to:)`.
  static func node<Value: Encodable>(_ value: Value) throws -> SortedJSONNode {
    switch value {
    case let text as String: return .string(text)
    case let number as Int: return .number(String(number))
    case let flag as Bool: return .bool(flag)
    case let number as Double: return try self.number(number)
    case is Data, is URL, is Decimal, is Float: throw Unsupported()
    case let writable as any SortedJSONWritable: return .writable(writable)
    default:
      let encoder = SortedJSONEncoder()
      try value.encode(to: encoder)
      return encoder.node ?? .object(SortedJSONObject())
    }
  }

  /// A double as `JSONEncoder` prints it: `description` without a trailing `.0`.
  static func number(_ value: Double) throws -> SortedJSONNode {
    guard value.isFinite else { throw Unsupported() }
    let text = value.description
    return .number(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
  }

  static func number<Integer: BinaryInteger>(_ value: Integer) -> SortedJSONNode { .number(String(value)) }
}

struct CanonicalKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let object: SortedJSONObject
  var codingPath: [any CodingKey] { [] }

  private func put(_ node: SortedJSONNode, _ key: Key) { object.entries.append((key.stringValue, node)) }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { put(try SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { throw SortedJSONEncoder.Unsupported() }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { put(SortedJSONEncoder.number(value), key) }

  mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
    put(try SortedJSONEncoder.node(value), key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = SortedJSONObject()
    put(.object(nested), key)
    return KeyedEncodingContainer(CanonicalKeyedContainer<NestedKey>(object: nested))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = SortedJSONArray()
    put(.array(nested), key)
    return CanonicalUnkeyedContainer(array: nested)
  }

  mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

  private func superEncoder(named name: String) -> any Encoder {
    let encoder = SortedJSONEncoder()
    object.entries.append((name, .encoder(encoder)))
    return encoder
  }
}

struct CanonicalUnkeyedContainer: UnkeyedEncodingContainer {
  let array: SortedJSONArray
  var codingPath: [any CodingKey] { [] }
  var count: Int { array.items.count }

  mutating func encodeNil() throws { array.items.append(.null) }
  mutating func encode(_ value: Bool) throws { array.items.append(.bool(value)) }
  mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
  mutating func encode(_ value: Int) throws { array.items.append(SortedJSONEncoder.number(value)) }
  mutating func encode(_ value: Int64) throws { array.items.append(SortedJSONEncoder.number(value)) }
  mutating func encode(_ value: Double) throws { array.items.append(try SortedJSONEncoder.number(value)) }
  mutating func encode(_ value: Float) throws { throw SortedJSONEncoder.Unsupported() }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    array.items.append(try SortedJSONEncoder.node(value))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = SortedJSONObject()
    array.items.append(.object(nested))
    return KeyedEncodingContainer(CanonicalKeyedContainer<NestedKey>(object: nested))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = SortedJSONArray()
    array.items.append(.array(nested))
    return CanonicalUnkeyedContainer(array: nested)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = SortedJSONEncoder()
    array.items.append(.encoder(encoder))
    return encoder
  }
}

struct CanonicalSingleValueContainer: SingleValueEncodingContainer {
  let encoder: SortedJSONEncoder
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { encoder.node = .null }
  mutating func encode(_ value: Bool) throws { encoder.node = .bool(value) }
  mutating func encode(_ value: String) throws { encoder.node = .string(value) }
  mutating func encode(_ value: Double) throws { encoder.node = try SortedJSONEncoder.number(value) }
  mutating func encode(_ value: Float) throws { throw SortedJSONEncoder.Unsupported() }
  mutating func encode(_ value: Int) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: Int8) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: Int16) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: Int32) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: Int64) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: UInt) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: UInt8) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: UInt16) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: UInt32) throws { encoder.node = SortedJSONEncoder.number(value) }
  mutating func encode(_ value: UInt64) throws { encoder.node = SortedJSONEncoder.number(value) }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    encoder.node = try SortedJSONEncoder.node(value)
  }
}
