import StatlineCore

/// A StatCrew file's `<status>`, whatever its sport: `complete="Y"` is final (the winner marked,
/// `Final/OT` past regulation); otherwise the game is live in the status period at its clock
/// ("Halftime" or "End of …" when the clock reads 00:00), and a status without a period is an
/// error. A file without `<status>` is refused: nothing says the game's state.
enum StatCrewStatus {
  static func apply(
    _ status: [String: String]?, regulation: Int, label: (Int) -> String, to game: inout Game
  ) throws(StatlineError) {
    guard let status else {
      throw StatlineError(.wrongPage, "the game has no <status> element", hint: "the XML may be cut off")
    }
    let period = GameText.int(status["period"])
    if status["complete"]?.uppercased() == "Y" {
      game.status = .final
      game.period = max(period ?? 0, game.home.periodScores.count, game.away.periodScores.count)
      game.periodLabel = game.period! > regulation ? "Final/\(label(game.period!))" : "Final"
      if let away = game.away.score, let home = game.home.score, away != home {
        game.away.winner = away > home
        game.home.winner = home > away
      }
      return
    }
    guard let period, period >= 1 else {
      throw StatlineError(
        .wrongPage, "the game is neither complete nor in a period (status period=\"\(status["period"] ?? "")\")")
    }
    game.status = .live
    game.period = period
    game.clock = GameText.clock(status["clock"])
    game.periodLabel =
      game.clock == "00:00" ? (period == regulation / 2 ? "Halftime" : "End of \(label(period))") : label(period)
  }
}
