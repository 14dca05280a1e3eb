/// The demo's weekly poll: an ncaa.com-style rankings page (what `ncaa-com-rankings` reads) of the
/// men's lacrosse media poll through the Sunday before the demo's game day. It is the sport's
/// primary poll in the demo, so the scoreboard and the live page show its ranks beside the
/// teams (the StatCrew files and ncaa.com's board print none).
public enum DemoRankings {
  public static let path = "/rankings/lacrosse-men/d1/inside-lacrosse"
  public static let poll = "ncaa:com-lacrosse-men-d1-inside-lacrosse"

  /// (rank, school as printed with first-place votes, points, previous, record)
  public static let rows: [(String, String, Int, String, String)] = [
    ("1", "Duke (15)", 500, "2", "4-0"), ("2", "North Carolina (5)", 485, "1", "3-0"),
    ("3", "Notre Dame", 450, "3", "3-1"), ("T4", "Army West Point", 402, "6", "3-1"),
    ("T4", "Syracuse", 402, "4", "3-1"), ("6", "Johns Hopkins", 380, "NR", "4-1"),
  ]

  public static var html: String {
    let body = rows.map { rank, school, points, previous, record in
      "<tr><td>\(rank)</td><td>\(school)</td><td>\(points)</td><td>\(previous)</td><td>\(record)</td></tr>"
    }.joined(separator: "\n")
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>Men's Lacrosse Rankings: Inside Lacrosse | NCAA.com</title></head>
      <body>
      <h1 class="node__title">Inside Lacrosse Men's DI Media Poll</h1>
      <select class="rankings-menu-select"><option value="\(path)" selected="selected">Inside Lacrosse</option></select>
      <div class="rankings-content">
      <figure class="rankings-last-updated">Through Games MAR. 1, 2026</figure>
      <table class="sticky">
      <thead><tr><th>RANK</th><th>SCHOOL</th><th>POINTS</th><th>PREVIOUS</th><th>RECORD</th></tr></thead>
      <tbody>
      \(body)
      </tbody>
      </table>
      <p>Others receiving votes: Navy 8, Maryland 3.</p>
      </div>
      </body></html>
      """
  }
}
