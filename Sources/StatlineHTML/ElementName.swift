import CLibXML2
import Foundation

/// An element name to find in a tree, converted to a C string once per walk, not once per node.
struct ElementName {
  private let name: [CChar]

  init(_ name: String) {
    self.name = Array(name.utf8CString)
  }

  func matches(_ node: xmlNodePtr) -> Bool {
    guard node.pointee.type == XML_ELEMENT_NODE, let own = node.pointee.name else { return false }
    return name.withUnsafeBufferPointer { name in
      // Most names differ in their first byte.
      CChar(bitPattern: own[0]) == name[0]
        && strcmp(UnsafeRawPointer(own).assumingMemoryBound(to: CChar.self), name.baseAddress!) == 0
    }
  }
}
