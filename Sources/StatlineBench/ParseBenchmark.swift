import Foundation
import StatlineCore
import StatlineHTML

/// Pages per second for the document layer (parse + extract every player row and stat cell)
/// next to libxml2's bare parse of the same bytes, measured in interleaved rounds.
public struct ParseBenchmark: Sendable {
  public struct Result: Sendable {
    public var bytes: Int
    public var rows: Int
    public var cells: Int
    public var barePagesPerSecond: Double
    public var layerPagesPerSecond: Double
    /// Extra cost of the layer over the bare parse, in percent.
    public var overheadPercent: Double { (barePagesPerSecond / layerPagesPerSecond - 1) * 100 }
  }

  public let page: Data
  public let rounds: Int
  public let pagesPerRound: Int

  public init(page: Data, rounds: Int = 7, pagesPerRound: Int = 50) {
    self.page = page
    self.rounds = rounds
    self.pagesPerRound = pagesPerRound
  }

  /// The box-score extraction the benchmark times: every player row's cells.
  public static func extract(_ page: Data) throws -> (rows: Int, cells: Int) {
    let document = try Document.html(page)
    var rows = 0
    var cells = 0
    for row in try document.select(xpath: "//table[contains(@id,'_data_table')]/tbody/tr") {
      rows += 1
      for cell in try row.select(xpath: "td") where !cell.text.isEmpty || cell.attribute("data-order") != nil {
        cells += 1
      }
    }
    return (rows, cells)
  }

  /// Runs only one contender `times` times, for instruction counting under callgrind
  /// (`valgrind --tool=callgrind statline bench parse --only layer`): repeatable where wall time is not.
  public func runOnly(layer: Bool, times: Int) throws {
    for _ in 0..<times {
      if layer { _ = try Self.extract(page) } else { _ = BareParse.html(page) }
    }
  }

  public func run() throws -> Result {
    let (rows, cells) = try Self.extract(page)
    guard rows > 0 else {
      throw StatlineError(
        .wrongPage, "the page has no stats tables to extract", hint: "benchmark a stats.ncaa.org box-score page")
    }
    let clock = ContinuousClock()
    var bare: [Duration] = []
    var layer: [Duration] = []
    for _ in 0..<rounds {
      bare.append(
        clock.measure {
          for _ in 0..<pagesPerRound { _ = BareParse.html(page) }
        })
      layer.append(
        try clock.measure {
          for _ in 0..<pagesPerRound { _ = try Self.extract(page) }
        })
    }
    func rate(_ samples: [Duration]) -> Double {
      let median = samples.sorted()[samples.count / 2]
      let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
      return Double(pagesPerRound) / seconds
    }
    return Result(
      bytes: page.count, rows: rows, cells: cells, barePagesPerSecond: rate(bare),
      layerPagesPerSecond: rate(layer))
  }
}
