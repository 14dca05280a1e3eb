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

  /// A cluster worker's loop after each poll: its next wake-up and whether anything it knows is
  /// due. The heap entries and passed entries looked at per poll stay a few, no more at 10,000
  /// targets than at 100 with the same polls in flight (before, both were a pass over every
  /// target's due time: 100 and 10,000). The busy targets' passed entries are skipped, so what
  /// is in flight counts.
  @Test func aWorkersWakeUpCostsTheSameAtAnySize() {
    var perPoll: [Int: Double] = [:]
    for size in [100, 10_000] {
      var book = Self.book(targets: size)
      // What a worker claims: the due targets, oldest first, a few at a time.
      let bySecond = Dictionary(grouping: book.states.values) { Int($0.nextDue!.timeIntervalSince(Self.t0)) }
      let (pops, looked) = (book.queue.pops, book.passedLooked)
      var polls = 0
      for second in bySecond.keys.sorted() {
        let now = Self.t0.addingTimeInterval(Double(second))
        let due = bySecond[second]!.sorted { $0.id < $1.id }
        for start in stride(from: 0, to: due.count, by: 8) {
          let claimed = due[start..<min(start + 8, due.count)]
          var busy = Set(claimed.map(\.id))
          for state in claimed {
            book.adopt(state)
            _ = book.nextWake(excluding: busy, after: now)
            _ = book.anyPassed(excluding: busy)
          }
          for state in claimed {
            busy.remove(state.id)
            _ = book.apply(Poller.Result(kind: .unchanged, status: 304), to: state.id, now: now, unit: { 0.5 })
            _ = book.nextWake(excluding: busy, after: now)
            _ = book.anyPassed(excluding: busy)
            polls += 1
          }
        }
      }
      #expect(polls == size)
      perPoll[size] = Double(book.queue.pops - pops + book.passedLooked - looked) / Double(polls)
    }
    #expect(perPoll[100]! <= 12 && perPoll[10_000]! <= 12, "a few entries per poll at any size: \(perPoll)")
    #expect(perPoll[10_000]! <= perPoll[100]! + 1, "no more at 10,000 than at 100: \(perPoll)")
  }

  /// The heap's answers are the pass's: after random puts, mirrors and polls, the next wake-up
  /// is the earliest due time after now among targets not busy, and "anything passed" says
  /// whether one of them is due by now.
  @Test func aWorkersWakeUpIsTheEarliestDueTimeItKnows() {
    var random = SystemRandomNumberGenerator()
    var book = Self.book(targets: 200)
    var now = Self.t0
    var busy: Set<String> = []
    for step in 0..<3_000 {
      let ids = Array(book.states.keys)
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        var state = book.states[ids.randomElement(using: &random)!]!
        state.nextDue = Bool.random(using: &random) ? now.addingTimeInterval(Double.random(in: -20...40)) : nil
        book.adopt(state)
      case 4..<6:
        let id = ids.randomElement(using: &random)!
        if !busy.insert(id).inserted { busy.remove(id) }
      case 6:
        if step % 50 == 0 { book.mirror(Array(book.states.values), keeping: busy) }
      default:
        now = now.addingTimeInterval(Double.random(in: 0...3))
      }
      let known = book.states.values.filter { !busy.contains($0.id) }.compactMap(\.nextDue)
      #expect(book.nextWake(excluding: busy, after: now) == known.filter { $0 > now }.min(), "step \(step)")
      #expect(book.anyPassed(excluding: busy) == known.contains { $0 <= now }, "step \(step)")
    }
  }
}
