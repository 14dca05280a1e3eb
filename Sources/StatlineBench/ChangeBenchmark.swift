import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineEngine
import StatlineSQLite

/// What an unchanged page costs next to a changed one, with the network taken out: polls of
/// one live game target whose answers come from memory (a 304, the same bytes again, or a page
/// whose clock moved), through the poller, the schedule book and the SQLite store.
public struct ChangeBenchmark: Sendable {
  public var polls: Int
  public var path: String

  public init(polls: Int, path: String) {
    self.polls = polls
    self.path = path
  }

  public struct Result: Sendable {
    public var changedMicroseconds: Double
    public var notModifiedMicroseconds: Double
    public var identicalMicroseconds: Double
    public var writesWhenUnchanged: Int
  }

  /// Answers from memory: `pages` in turn, or a 304.
  struct MemoryFetcher: Fetcher {
    let pages: [Data]
    let notModified: Bool
    let counter = Counter()

    func fetch(_ request: FetchRequest) async throws -> Page {
      if notModified { return Page(url: request.url, status: 304, headers: ["etag": "\"e\""], body: Data()) }
      return Page(url: request.url, status: 200, body: pages[counter.next() % pages.count])
    }
  }

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
      lock.withLock {
        defer { value += 1 }
        return value
      }
    }
  }

  public func run() async throws -> Result {
    let registry = try BuiltinPlugins.registry()
    let game = DemoGameDay().games[0]
    let pages = [570, 540].map {
      Data(StatCrewWriter.xml(game, at: .inPeriod(period: 2, remaining: $0), date: DemoGameDay.date).utf8)
    }
    let target = Target(
      url: "https://archive.statbroadcast.com/640301.xml", source: "statbroadcast", parser: "statbroadcast-game-xml",
      role: .game)
    let store = try SQLiteStore(path: path)
    func measure(_ fetcher: MemoryFetcher) async throws -> (Double, Int) {
      let poller = Poller(fetcher: fetcher, registry: registry, captures: nil)
      var book = ScheduleBook(states: [])
      let now = Date(timeIntervalSince1970: 1_772_902_800)
      _ = book.seed([target], now: now)
      // The first poll stores the page (and sets the validators); the rest are measured.
      var written = 0
      let first = await poller.poll(book.states[target.id]!, now: { now })
      _ = try await store.commit(book.apply(first, to: target.id, now: now, unit: { 0.5 }).commit)
      let start = CycleBenchmark.cpuSeconds()
      for _ in 0..<polls {
        let state = book.states[target.id]!
        let result = await poller.poll(state, now: { now })
        let applied = book.apply(result, to: target.id, now: now, unit: { 0.5 })
        if case .unchanged = result.kind { continue }  // nothing to store: see Scheduler.settle
        written += try await store.commit(applied.commit).written
      }
      return ((CycleBenchmark.cpuSeconds() - start) / Double(polls) * 1e6, written)
    }
    let (changed, _) = try await measure(MemoryFetcher(pages: pages, notModified: false))
    let (notModified, writes304) = try await measure(MemoryFetcher(pages: pages, notModified: true))
    let (identical, writesSame) = try await measure(MemoryFetcher(pages: [pages[0]], notModified: false))
    return Result(
      changedMicroseconds: changed, notModifiedMicroseconds: notModified, identicalMicroseconds: identical,
      writesWhenUnchanged: writes304 + writesSame)
  }
}
