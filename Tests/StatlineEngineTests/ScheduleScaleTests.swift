import Foundation
import StatlineCore
import Testing

@testable import StatlineEngine

/// The scheduler's work per poll does not grow with the schedule (issue 31): finding the due
/// targets and the next wake-up looks at the targets it takes, whatever the number of targets
/// (counted in heap entries, never timed). Before the heap, each poll looked at every target.
@Suite struct ScheduleScaleTests {
  static let t0 = Date(timeIntervalSince1970: 1_771_200_000)

  static func book(targets: Int) -> ScheduleBook {
    ScheduleBook(
      states: (0..<targets).map { index in
        TargetState(
          target: Target(url: "http://h/game/\(index).xml", source: "test", parser: "test-game", role: .game),
          nextDue: t0.addingTimeInterval(Double(index % 30)))
      })
  }

  /// One cycle of polls at each size: every target taken once, each one's next poll put back;
  /// the entries looked at per poll are the same at 100 and at 10,000 targets.
  @Test func findingDueTargetsCostsTheSameAtAnySize() {
    var perPoll: [Int: Double] = [:]
    for size in [100, 10_000] {
      var book = Self.book(targets: size)
      let before = book.queue.pops
      var polls = 0
      var now = Self.t0
      while polls < size {
        let taken = book.takeDue(at: now, excluding: [], limit: 64)
        for state in taken {
          _ = book.apply(Poller.Result(kind: .unchanged, status: 304), to: state.id, now: now, unit: { 0.5 })
        }
        polls += taken.count
        _ = book.nextDue(excluding: [])
        now = now.addingTimeInterval(1)
      }
      perPoll[size] = Double(book.queue.pops - before) / Double(polls)
    }
    #expect(perPoll[100] == 1 && perPoll[10_000] == 1, "one heap entry per poll at any size: \(perPoll)")
  }
}
