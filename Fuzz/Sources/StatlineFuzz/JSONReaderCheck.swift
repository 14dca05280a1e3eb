import Foundation
import StatlineCore

/// The JSON tape (`JSONDocument`) on any bytes: it never crashes, every value it keeps can be
/// read back (members found by their keys, counts that match), and it reads every text
/// Foundation's `JSONSerialization` reads, apart from the differences it means to have: deeper
/// nesting than its limit, and texts Foundation reads as UTF-16 or UTF-32.
enum JSONReaderCheck {
  static func check(_ data: Data) {
    let document: JSONDocument
    do {
      document = try JSONDocument(data: data)
    } catch {
      let otherEncoding = data.contains(0) || data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE])
      if !otherEncoding, !error.problem.hasPrefix("the values nest"),
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
      {
        fatalError("Foundation reads a text the tape refuses (\(error)): \(String(decoding: data, as: UTF8.self))")
      }
      return
    }
    var budget = 10_000
    walk(document.root, budget: &budget)
  }

  private static func walk(_ node: JSONNode, budget: inout Int) {
    budget -= 1
    guard budget > 0 else { return }
    switch node.kind {
    case .object:
      let members = node.members
      guard members.count == node.count else { fatalError("an object of \(node.count) members lists \(members.count)") }
      for (key, value) in members {
        // A key whose bytes are not UTF-8 reads with U+FFFD in their place, and is found by its bytes only.
        if !key.contains("\u{FFFD}"), node[key] == nil { fatalError("member '\(key)' is not found") }
        walk(value, budget: &budget)
      }
    case .array:
      let elements = Array(node.elements)
      guard elements.count == node.count else {
        fatalError("an array of \(node.count) elements lists \(elements.count)")
      }
      for element in elements { walk(element, budget: &budget) }
    case .string:
      guard let text = node.string else { fatalError("a string without its text") }
      if let valid = node.validString, valid != text { fatalError("a valid string read two ways: \(valid) / \(text)") }
    case .number:
      guard let text = node.numberText, let double = node.double, Double(text) == double || double.isNaN else {
        fatalError("a number that does not read: \(node.numberText ?? "?")")
      }
      if let int = node.int, Double(int) != double.rounded() && abs(double) < 0x1p53 {
        fatalError("a number read as \(int) and \(double)")
      }
    case .bool:
      guard node.bool != nil else { fatalError("a boolean without its value") }
    case .null:
      break
    }
    if budget % 97 == 0 { _ = node.path }
  }
}
