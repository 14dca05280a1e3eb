import StatlineHTML

/// `FragmentCaptures` with each fragment tagged by what the reader keeps it for. Generic here,
/// in the module that uses it, so the compiler specializes it for each reader.
struct TaggedCaptures<Slot> {
  private var captures = FragmentCaptures()
  private var slots: [Slot] = []

  /// Keeps the element about to be passed to `start` whole, for `slot`.
  mutating func keep(_ slot: Slot) {
    captures.begin(slots.count)
    slots.append(slot)
  }

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) {
    captures.start(element, attributes: attributes)
  }

  /// Ends the innermost element of every open fragment; hands over those that are now whole.
  mutating func end(_ finished: (Slot, FragmentNode) -> Void) {
    let slots = self.slots
    captures.end { tag, root in finished(slots[tag], root) }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }

  mutating func comment() { captures.comment() }
}
