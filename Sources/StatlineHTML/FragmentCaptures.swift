/// The fragments a stream reader is building at once (one may hold another), each tagged with
/// a number that says what the reader keeps it for. A reader calls `begin` for an element it
/// wants whole, then passes every event on. (Not generic over the tag: called across modules,
/// a generic would look its metadata up on every event.)
public struct FragmentCaptures {
  private var tags: [Int] = []
  private var builders: [FragmentBuilder] = []

  public init() {}

  /// True while some fragment is being built.
  public var isCapturing: Bool { !builders.isEmpty }

  /// Keeps the element about to be passed to `start` whole, tagged `tag`.
  public mutating func begin(_ tag: Int) {
    tags.append(tag)
    builders.append(FragmentBuilder())
  }

  public mutating func start(_ element: XMLName, attributes: HTMLAttributes) {
    for index in builders.indices { builders[index].start(element, attributes: attributes) }
  }

  /// Ends the innermost element of every open fragment; hands over those that are now whole.
  public mutating func end(_ finished: (_ tag: Int, _ root: FragmentNode) -> Void) {
    var index = builders.count - 1
    while index >= 0 {
      if let root = builders[index].end() {
        finished(tags[index], root)
        tags.remove(at: index)
        builders.remove(at: index)
      }
      index -= 1
    }
  }

  public mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    for index in builders.indices { builders[index].text(bytes) }
  }

  public mutating func comment() {
    for index in builders.indices { builders[index].comment() }
  }
}

/// `FragmentCaptures` with each fragment tagged by what the reader keeps it for. Inlinable, so
/// the compiler specializes it in each reader's module (an unspecialized generic looks its
/// metadata up on every event).
public struct TaggedCaptures<Slot> {
  @usableFromInline var captures = FragmentCaptures()
  @usableFromInline var slots: [Slot] = []

  @inlinable public init() {}

  /// Keeps the element about to be passed to `start` whole, for `slot`.
  @inlinable public mutating func keep(_ slot: Slot) {
    captures.begin(slots.count)
    slots.append(slot)
  }

  @inlinable public mutating func start(_ element: XMLName, attributes: HTMLAttributes) {
    captures.start(element, attributes: attributes)
  }

  /// Ends the innermost element of every open fragment; hands over those that are now whole.
  @inlinable public mutating func end(_ finished: (Slot, FragmentNode) -> Void) {
    let slots = self.slots
    captures.end { tag, root in finished(slots[tag], root) }
  }

  @inlinable public mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }

  @inlinable public mutating func comment() { captures.comment() }
}
