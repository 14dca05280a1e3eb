import Foundation

/// The memory `HTMLTokenizer` writes into: one start tag's attributes (lower-case names and
/// decoded values, NUL-terminated, and libxml2's NULL-terminated array of name and value
/// pointers), and the names of open elements without rules. Freed by `release`.
struct HTMLTokenizerScratch {
  private var bytes: UnsafeMutablePointer<UInt8>
  private var capacity = 4096
  private(set) var bytesCount = 0
  /// Per attribute: where its name starts in `bytes`, and its value (-1: none, a bare attribute).
  private var names: [Int] = []
  private var values: [Int] = []
  private var pointerList: UnsafeMutablePointer<UnsafePointer<UInt8>?>
  private var pointerCapacity = 34
  private var blocks: [UnsafeMutablePointer<UInt8>] = []
  private var blockUsed = Self.blockSize
  private static let blockSize = 4096

  init() {
    bytes = .allocate(capacity: capacity)
    pointerList = .allocate(capacity: pointerCapacity)
  }

  mutating func release() {
    bytes.deallocate()
    pointerList.deallocate()
    for block in blocks { block.deallocate() }
    blocks = []
  }

  var attributeCount: Int { names.count }

  mutating func resetAttributes() {
    bytesCount = 0
    names.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if bytesCount == capacity { grow() }
    bytes[bytesCount] = byte
    bytesCount += 1
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
    larger.update(from: bytes, count: bytesCount)
    bytes.deallocate()
    bytes = larger
    capacity *= 2
  }

  mutating func appendUTF8(_ value: UInt32) {
    var encoded: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    let length = withUnsafeMutableBytes(of: &encoded) { HTMLTokenizer.encode(value, into: $0) }
    withUnsafeBytes(of: &encoded) { buffer in
      for index in 0..<length { append(buffer[index]) }
    }
  }

  mutating func truncate(to count: Int) { bytesCount = count }

  mutating func addAttribute(name: Int, value: Int?) {
    names.append(name)
    values.append(value ?? -1)
  }

  /// Whether an attribute already read has the name at `start` (`length` bytes, NUL after).
  func hasAttribute(named start: Int, length: Int) -> Bool {
    for name in names where memcmp(bytes + name, bytes + start, length + 1) == 0 { return true }
    return false
  }

  /// Attribute `index`'s name and value (valid until the next append).
  func attribute(_ index: Int) -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>?) {
    let name = UnsafeBufferPointer(start: bytes + names[index], count: strlen(bytes + names[index]))
    let value =
      values[index] < 0 ? nil : UnsafeBufferPointer(start: bytes + values[index], count: strlen(bytes + values[index]))
    return (name, value)
  }

  /// libxml2's attribute array for the attributes read: name, value (NULL for a bare one), …, NULL.
  mutating func pointers() -> UnsafeMutablePointer<UnsafePointer<UInt8>?> {
    let needed = names.count * 2 + 2
    if needed > pointerCapacity {
      pointerList.deallocate()
      pointerCapacity = needed * 2
      pointerList = .allocate(capacity: pointerCapacity)
    }
    for index in names.indices {
      pointerList[2 * index] = UnsafePointer(bytes + names[index])
      pointerList[2 * index + 1] = values[index] < 0 ? nil : UnsafePointer(bytes + values[index])
    }
    pointerList[2 * names.count] = nil
    pointerList[2 * names.count + 1] = nil
    return pointerList
  }

  /// A lower-case, NUL-terminated copy of an element name, kept until `release`.
  mutating func keepName(_ source: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8> {
    if blockUsed + count + 1 > Self.blockSize {
      blocks.append(.allocate(capacity: Self.blockSize))
      blockUsed = 0
    }
    let target = blocks[blocks.count - 1] + blockUsed
    for offset in 0..<count {
      let byte = source[offset]
      target[offset] = byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
    target[count] = 0
    blockUsed += count + 1
    return UnsafePointer(target)
  }
}
