/// A field's value after its transforms.
public enum FieldValue: Sendable, Equatable, CustomStringConvertible {
  case string(String)
  case integer(Int)
  case boolean(Bool)

  public var description: String {
    switch self {
    case .string(let value): value
    case .integer(let value): String(value)
    case .boolean(let value): String(value)
    }
  }
}

/// The fields of one row (or of the page), in evaluation order, with where they came from.
public struct RowValues: Sendable, Equatable {
  /// "games row 3": where in the page, for error messages.
  public var context: String
  public var values: [String: FieldValue]

  public subscript(name: String) -> FieldValue? { values[name] }
}

/// What a GenericHTML config read from a page: its page fields and one value set per row.
public struct GenericRecords: Sendable, Equatable {
  public var page: RowValues
  public var games: [RowValues]
  public var teams: [RowValues]
}
