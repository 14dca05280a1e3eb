import Foundation

/// A GraphQL answer as `JSONDecoder` reads it in one pass: the messages of `errors[]`, and what
/// `data.<field>` holds (the field's name comes through `userInfo[fieldKey]`). Decoding never
/// throws for a wrong shape inside the answer, only for a body that is not JSON: every other
/// case is a value `GraphQLAnswer` turns into the error that says what to do.
struct GraphQLEnvelope<T: Decodable>: Decodable {
  enum DataField {
    /// No `data` object (absent, null or not an object).
    case none
    /// `data` has no such field (or it is null); the keys it holds, sorted.
    case missing([String])
    /// The field is an object holding only `__typename`: a hash of another sport's query.
    case onlyTypename
    case value(Result<T, DecodingError>)
  }

  static var fieldKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "statline.graphql.field")! }

  /// One entry per object of `errors[]`: its message, if it has one.
  var errors: [String?] = []
  var data: DataField = .none

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private struct Message: Decodable {
    var message: String?
  }

  init(from decoder: any Decoder) throws {
    guard let root = try? decoder.container(keyedBy: Key.self) else { return }
    let field = Key(stringValue: decoder.userInfo[Self.fieldKey] as? String ?? "")
    let list = (try? root.decodeIfPresent([Message].self, forKey: Key(stringValue: "errors"))) ?? nil
    errors = list?.map { $0.message } ?? []
    guard let object = try? root.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "data")) else { return }
    guard object.contains(field), (try? object.decodeNil(forKey: field)) == false else {
      data = .missing(object.allKeys.map(\.stringValue).sorted())
      return
    }
    if let inner = try? object.nestedContainer(keyedBy: Key.self, forKey: field),
      inner.allKeys.allSatisfy({ $0.stringValue == "__typename" })
    {
      data = .onlyTypename
      return
    }
    do {
      data = .value(.success(try object.decode(T.self, forKey: field)))
    } catch let error as DecodingError {
      data = .value(.failure(error))
    }
  }
}
