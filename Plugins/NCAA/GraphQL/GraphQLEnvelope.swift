import StatlineCore

/// A GraphQL answer as the tape reads it: the messages of `errors[]`, and what `data.<field>`
/// holds. Reading never fails for a wrong shape inside the answer: every case is a value
/// `GraphQLAnswer` turns into the error that says what to do.
struct GraphQLEnvelope<T: JSONReadable> {
  enum DataField {
    /// No `data` object (absent, null or not an object).
    case none
    /// `data` has no such field (or it is null); the keys it holds, sorted.
    case missing([String])
    /// The field is an object holding only `__typename`: a hash of another sport's query.
    case onlyTypename
    case value(Result<T, JSONShapeError>)
  }

  /// One entry per element of `errors[]`: its message, if it has one.
  var errors: [String?] = []
  var data: DataField = .none

  init(_ root: JSONNode, field: String) {
    if let list = root["errors"], list.kind == .array {
      errors = list.elements.map { $0["message"]?.string }
    }
    guard let object = root["data"], object.kind == .object else { return }
    guard let value = object[field], !value.isNull else {
      data = .missing(object.keys.sorted())
      return
    }
    // (Counted, not listed: listing made a string of every key of every answer.)
    if value.kind == .object, value.count == 0 || value.count == 1 && value["__typename"] != nil {
      data = .onlyTypename
      return
    }
    do {
      data = .value(.success(try T(json: value)))
    } catch {
      data = .value(.failure(error))
    }
  }
}
