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
