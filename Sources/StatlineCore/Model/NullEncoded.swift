/// An optional that encodes `nil` as an explicit JSON `null`.
///
/// The contract (architecture.md#the-contract) shows every field, with `null` where the page does not say;
/// synthesized `Codable` would drop the key instead. Wrapping the property keeps synthesized
/// coding, so a field added later cannot be forgotten by a hand-written `encode(to:)`.
@propertyWrapper
public struct NullEncoded<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  public var wrappedValue: Value?

  public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}

extension KeyedDecodingContainer {
  /// A missing key decodes as `nil`, as it would for a plain optional.
  public func decode<Value>(_ type: NullEncoded<Value>.Type, forKey key: Key) throws -> NullEncoded<Value> {
    try decodeIfPresent(type, forKey: key) ?? NullEncoded(wrappedValue: nil)
  }
}

extension NullEncoded: Hashable where Value: Hashable {}
