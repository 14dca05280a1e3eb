/// A source's record shown with a canonical game whose away and home it has the other way round
/// (a neutral site listed in the other order: `Game.reversedSources`).
extension Side {
  public var other: Side { self == .away ? .home : .away }
}

extension BoxScore {
  /// The box score with its two sides swapped.
  public func sidesTurned() -> BoxScore {
    var box = self
    swap(&box.away, &box.home)
    return box
  }
}

extension Play {
  /// The play with its side and running score swapped.
  public func sidesTurned() -> Play {
    var play = self
    play.side = side?.other
    (play.awayScore, play.homeScore) = (homeScore, awayScore)
    return play
  }
}
