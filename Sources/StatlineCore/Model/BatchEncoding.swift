import Foundation

extension Batch {
  /// The deterministic JSON form of the contract: sorted keys, stable array order, no
  /// timestamps of the run, two-space indentation, a final newline.
  public func jsonData() throws -> Data {
    var data = try Batch.encoder.encode(self)
    data.append(0x0A)
    return data
  }

  /// `jsonData()` as text.
  public func jsonString() throws -> String { String(decoding: try jsonData(), as: UTF8.self) }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return encoder
  }
}
