/// A JSON value that a feed sends as a number in one answer and a string in another (ncaa.com's
/// `teamId`, ESPN's `"score": "13"`), kept as its text: JSON parsers of every plugin share it.
public struct JSONScalar: Decodable, JSONReadable, Sendable, Equatable {
  public var text: String

  public init(text: String) { self.text = text }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let int = try? container.decode(Int.self) {
      text = String(int)
    } else if let double = try? container.decode(Double.self) {
      text = String(double)
    } else if let bool = try? container.decode(Bool.self) {
      text = String(bool)
    } else {
      text = (try? container.decode(String.self)) ?? ""
    }
  }

  /// A whole number's digits, any other number as `Double` writes it, a string's text, `true` or
  /// `false`; "" for null, arrays and objects (as the `Decodable` reading gives).
  public init(json: borrowing JSONNode) throws(JSONShapeError) {
    switch json.kind {
    case .number: text = json.int.map(String.init) ?? json.double.map { String($0) } ?? ""
    case .string:
      guard let value = json.validString else { throw JSONShapeError(.invalidUTF8, at: copy json) }
      text = value
    case .bool: text = json.bool == true ? "true" : "false"
    case .null, .array, .object: text = ""
    }
  }

  /// The text as a whole number (`GameText.int`), or nil.
  public var int: Int? { GameText.int(text) }
}
