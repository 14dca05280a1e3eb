import Foundation
import StatlineCore
import StatlineHTML

/// Pages per second for one parser's whole path (parse → normalize → validate) next to the bare
/// parse of the same bytes (libxml2 for HTML and XML, the JSON tape — `JSONDocument` — for
/// JSON) and the parser's parse stage alone (the page read into its records: what a peer that
/// only extracts the values does), in interleaved rounds (median of each).
public struct PipelineBenchmark: Sendable {
  public struct Result: Sendable {
    public var bytes: Int
    public var records: Int
    public var barePagesPerSecond: Double
    /// The parse stage alone (`ParserEntry.parseOnly`).
    public var parsePagesPerSecond: Double
    public var pipelinePagesPerSecond: Double
    /// The median over rounds of each round's pipeline time over the bare time measured right
    /// before it, minus one, in percent: neighbouring rounds share the machine's state, so this
    /// is the steadiest estimate on a noisy machine.
    public var pairedOverheadPercent: Double
    /// From each contender's fastest round.
    public var bestOverheadPercent: Double
    public var overheadPercent: Double { (barePagesPerSecond / pipelinePagesPerSecond - 1) * 100 }
  }

  public let page: Page
  public let entry: ParserEntry
  public let rounds: Int
  public let pagesPerRound: Int

  public init(page: Page, entry: ParserEntry, rounds: Int, pagesPerRound: Int) {
    self.page = page
    self.entry = entry
    self.rounds = rounds
    self.pagesPerRound = pagesPerRound
  }

  public func run() throws -> Result {
    let batch = try PagePipeline.run(page, with: entry)
    let records = StoreRecord.records(of: batch).count
    let bare = Self.bareParse(entry.format)
    let clock = ContinuousClock()
    var bareTimes: [Duration] = []
    var parseTimes: [Duration] = []
    var pipelineTimes: [Duration] = []
    for _ in 0..<rounds {
      bareTimes.append(clock.measure { for _ in 0..<pagesPerRound { bare(page.body) } })
      parseTimes.append(try clock.measure { for _ in 0..<pagesPerRound { try entry.parseOnly(page) } })
      pipelineTimes.append(
        try clock.measure { for _ in 0..<pagesPerRound { _ = try PagePipeline.run(page, with: entry) } })
    }
    func rate(_ samples: [Duration]) -> Double {
      let median = samples.sorted()[samples.count / 2]
      return Double(pagesPerRound) / (Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18)
    }
    func seconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    let paired = zip(pipelineTimes, bareTimes).map { seconds($0) / seconds($1) }.sorted()
    return Result(
      bytes: page.body.count, records: records, barePagesPerSecond: rate(bareTimes),
      parsePagesPerSecond: rate(parseTimes), pipelinePagesPerSecond: rate(pipelineTimes),
      pairedOverheadPercent: (paired[paired.count / 2] - 1) * 100,
      bestOverheadPercent: (seconds(pipelineTimes.min()!) / seconds(bareTimes.min()!) - 1) * 100)
  }

  /// What the pipeline is compared against: the parse of the page's format with nothing on top.
  public static func bareParse(_ format: DocumentFormat) -> @Sendable (Data) -> Void {
    switch format {
    case .xml: { _ = BareParse.xml($0) }
    case .html: { _ = BareParse.html($0) }
    case .json: { _ = try? JSONDocument(data: $0) }
    }
  }

  /// The bare contender's name, for reports.
  public static func bareName(_ format: DocumentFormat) -> String {
    format == .json ? "JSON tape bare parse" : "libxml2 bare parse"
  }
}
