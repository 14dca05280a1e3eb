import StatlineCore

/// A play-by-play table's columns, from its header row's text (architecture.md#failure: tables by their
/// header): `Time` (baseball's and volleyball's tables have none), `Score`, and the two team
/// columns, each matched to the visitor or the home team by the name it prints (the page's
/// header names both); only when neither name matches does the first team column stand for the
/// visitor, as every layout prints it.
struct PlayColumns: Sendable, Equatable {
  var time: Int?
  var score: Int
  var away: Int
  var home: Int

  /// The highest column index a full row must reach.
  var last: Int { max(time ?? 0, score, away, home) }

  /// nil when the header has no `Score` column, or not exactly two other named ones.
  static func read(_ headers: [String], visitor: [String] = [], home homeNames: [String] = []) -> PlayColumns? {
    let lowered = headers.map { $0.lowercased() }
    guard let score = lowered.firstIndex(of: "score") else { return nil }
    let time = lowered.firstIndex(of: "time")
    let teams = headers.indices.filter { $0 != time && $0 != score && !headers[$0].isEmpty }
    guard teams.count == 2 else { return nil }
    func names(_ column: Int, _ candidates: [String]) -> Bool {
      candidates.contains { !$0.isEmpty && $0.lowercased() == lowered[column] }
    }
    let swapped =
      names(teams[0], homeNames) && !names(teams[0], visitor) || names(teams[1], visitor) && !names(teams[1], homeNames)
    return PlayColumns(
      time: time, score: score, away: swapped ? teams[1] : teams[0], home: swapped ? teams[0] : teams[1])
  }
}
