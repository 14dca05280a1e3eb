import Foundation

/// The targets' due times as a binary min-heap, so that finding the next due target costs
/// O(log n) rather than a pass over every target (at 10,000 targets the scheduler's loop, which
/// looks after every poll, spent most of its time scanning). Entries are never updated in place:
/// a new due time is pushed, and an entry whose time is no longer its target's (`current`) is
/// dropped when it reaches the top.
struct DueQueue: Sendable {
  struct Entry: Sendable {
    var due: Date
    var id: String

    static func < (a: Entry, b: Entry) -> Bool { (a.due, a.id) < (b.due, b.id) }
  }

  private var heap: [Entry] = []
  /// Entries looked at and removed so far: what finding due targets cost (a test holds it to
  /// the targets taken, whatever the schedule's size).
  private(set) var pops = 0

  init() {}

  init<S: Sequence>(_ dues: S) where S.Element == (key: String, value: Date) {
    heap = dues.map { Entry(due: $0.value, id: $0.key) }
    heap.sort(by: <)  // a sorted array is a heap
  }

  mutating func push(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child] < heap[parent] else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  var top: Entry? { heap.first }

  @discardableResult
  mutating func pop() -> Entry? {
    guard !heap.isEmpty else { return nil }
    pops += 1
    heap.swapAt(0, heap.count - 1)
    let last = heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left] < heap[smallest] { smallest = left }
      if right < heap.count, heap[right] < heap[smallest] { smallest = right }
      guard smallest != parent else { break }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
    return last
  }
}
