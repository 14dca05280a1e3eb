/// A value of the wrong shape for its reader: what was expected, and the JSON path of the value
/// (`.data.playbyplay.periods[2].playbyplayStats[0].plays`), worked out only when asked for.
public struct JSONShapeError: Error, Sendable, CustomStringConvertible {
  public enum Problem: Sendable, Equatable {
    /// The object at the path has no such member (or it is null, for a required value).
    case missingKey(String)
    /// The value at the path is of another kind.
    case typeMismatch(expected: String)
    /// The string at the path is not UTF-8.
    case invalidUTF8
  }

  public var problem: Problem
  /// The value the problem is about (for a missing key: the object that lacks it).
  public var node: JSONNode

  public init(_ problem: Problem, at node: JSONNode) {
    self.problem = problem
    self.node = node
  }

  /// `.teams[0].score`; "the top level" for the root.
  public var path: String { node.path }

  public var description: String {
    let path = node.index == 0 ? "the top level" : path
    switch problem {
    case .missingKey(let key): return "missing key '\(key)' at \(path)"
    case .typeMismatch(let expected): return "expected \(expected) at \(path), found \(node.kind.noun)"
    case .invalidUTF8: return "a string that is not UTF-8 at \(path)"
    }
  }
}

extension JSONKind {
  /// "an object", "a string", … for messages.
  public var noun: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

extension JSONNode {
  /// The node's JSON path from the root (`.games[0].home`; empty for the root), found by walking
  /// down the tape: used for messages only.
  public var path: String {
    var path = ""
    var at = 0
    let tape = document.tape
    while at != index {
      let entry = tape[at]
      var child = at + 1
      var position = 0
      var found = false
      while child < Int(entry.end) {
        let value = entry.kind == .object ? child + 1 : child
        let next = tape[value].next(after: value)
        if index >= value && index < next {
          if entry.kind == .object {
            let key = JSONStrings.decode(document.bytes, tape[child])
            path +=
              key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) && !key.isEmpty ? ".\(key)" : "[\"\(key)\"]"
          } else {
            path += "[\(position)]"
          }
          at = value
          found = true
          break
        }
        child = next
        position += 1
      }
      guard found else { return path + "?" }
    }
    return path
  }
}
