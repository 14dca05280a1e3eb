import StatlineHTML

/// The line score of a broadcast view ("Game Line Score"), read by its header: the columns
/// headed by a period number (`1` … `8`) are the periods, the one headed `R` (or `T`, `TOT`,
/// `F`, `S`) the total; the first body row is the visitor's, the second the home team's, as in
/// the status bar. Other columns (`H`, `E`, `L`, `MV`, and baseball's `OT`, offensive timeouts)
/// are not the score and are left alone. A period cell left empty (the home half not yet
/// played) ends that team's line.
struct BroadcastLineScore: Sendable, Equatable {
  var visitor: [Int]
  var home: [Int]
  var visitorTotal: Int?
  var homeTotal: Int?

  static let totalHeaders: Set<String> = ["R", "T", "TOT", "TOTAL", "F", "FINAL", "S", "SCORE"]

  /// The first table whose header row has numbered periods and a total column, with two team
  /// rows; nil when the view has none.
  static func find(in tables: [FragmentNode]) -> BroadcastLineScore? {
    for table in tables {
      let rows = table.descendants(named: "tr")
      guard let header = rows.first(where: { !$0.children(named: "th").isEmpty }) else { continue }
      let headers = header.children(named: "th").map { $0.text.uppercased() }
      let periods = headers.indices.filter { Int(headers[$0]).map { $0 > 0 } ?? false }
      guard !periods.isEmpty, let total = headers.firstIndex(where: totalHeaders.contains) else { continue }
      let teams = rows.map { $0.children(named: "td") }.filter { $0.count == headers.count }
      guard teams.count == 2 else { continue }
      func line(_ cells: [FragmentNode]) -> [Int] {
        var scores: [Int] = []
        for column in periods {
          guard let score = Int(cells[column].text) else { break }
          scores.append(score)
        }
        return scores
      }
      return BroadcastLineScore(
        visitor: line(teams[0]), home: line(teams[1]), visitorTotal: Int(teams[0][total].text),
        homeTotal: Int(teams[1][total].text))
    }
    return nil
  }
}
