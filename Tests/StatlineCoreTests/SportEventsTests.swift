import StatlineCore
import Testing

/// Events that speak each sport (issue 30, point 4): goals only where the score is goals, points
/// and runs as one `game.scored` per side, sets as `game.setEnded`. Before, a basketball basket
/// was two or three `game.goal`s.
@Suite struct SportEventsTests {
  static func game(_ sport: Sport, _ status: GameStatus, period: Int?, _ away: Int?, _ home: Int?) -> Game {
    Game(
      id: "espn:1", sport: sport, status: status, period: period,
      away: TeamLine(team: TeamRef(id: "espn:team-1", name: "Away"), score: away),
      home: TeamLine(team: TeamRef(id: "espn:team-2", name: "Home"), score: home))
  }

  func summary(_ events: [ChangeEvent]) -> [String] {
    events.map { event in
      "\(event.type.rawValue.dropFirst(5)) \(event.side?.rawValue ?? "-") \(event.points.map(String.init) ?? "-") "
        + "\(event.awayScore ?? -1)-\(event.homeScore ?? -1)"
    }
  }

  @Test func aBasketballBasketIsOneScoredEventWithItsPoints() {
    let before = Self.game(.basketballMen, .live, period: 1, 20, 13)
    let after = Self.game(.basketballMen, .live, period: 1, 23, 15)
    let events = ScoreDiffer.events(previous: before, current: after)
    #expect(summary(events) == ["scored away 3 23-13", "scored home 2 23-15"])
    #expect(!events.contains { $0.type == .goal })
  }

  /// The batch's score plays name each basket: one event per basket, with its points, scorer,
  /// assist and kind; what no play explains stays one event per side.
  @Test func theScorePlaysNameEachBasket() {
    let before = Self.game(.basketballMen, .live, period: 1, 20, 13)
    let after = Self.game(.basketballMen, .live, period: 1, 25, 14)
    func play(_ sequence: Int, _ side: Side, _ away: Int, _ home: Int, _ points: String, _ player: String) -> Play {
      Play(
        gameId: "espn:1", sequence: sequence, period: 1, clock: "09:0\(sequence)", side: side, type: .score,
        text: "GOOD", player: player, assist: sequence == 1 ? "Helper" : nil, awayScore: away, homeScore: home,
        details: ["points": points, "kind": points == "3" ? "3PTR" : "LAYUP"])
    }
    let plays = [play(1, .away, 23, 13, "3", "Shooter"), play(2, .away, 25, 13, "2", "Driver")]
    let events = ScoreDiffer.events(previous: before, current: after, plays: plays)
    #expect(summary(events) == ["scored away 3 23-13", "scored away 2 25-13", "scored home 1 25-14"])
    #expect(events[0].player == "Shooter" && events[0].assist == "Helper" && events[0].details["kind"] == "3PTR")
    #expect(events[2].player == nil, "a point no play explains names nobody")
  }

  @Test func aBasketTakingTheLeadIsALeadChange() {
    let before = Self.game(.basketballWomen, .live, period: 4, 60, 61)
    let after = Self.game(.basketballWomen, .live, period: 4, 63, 61)
    #expect(
      summary(ScoreDiffer.events(previous: before, current: after))
        == ["scored away 3 63-61", "leadChange away - 63-61"])
  }

  @Test func runsAreScoredAndExtraInningsAreOvertime() {
    let before = Self.game(.baseball, .live, period: 9, 3, 3)
    let after = Self.game(.baseball, .live, period: 10, 4, 3)
    let events = ScoreDiffer.events(previous: before, current: after)
    #expect(
      events.map(\.type) == [.periodEnded, .periodStarted, .overtime, .scored], "from a tie nobody led: no lead change")
    #expect(events.first { $0.type == .scored }?.points == 1)
  }

  /// Whether the page says women's, men's or neither (`volleyball`).
  @Test(arguments: [Sport.volleyballWomen, .volleyballMen, .volleyball])
  func aSetWonIsOneSetEndedAndAFifthSetIsNoOvertime(_ sport: Sport) {
    let before = Self.game(sport, .live, period: 4, 2, 1)
    let after = Self.game(sport, .live, period: 5, 2, 2)
    let events = ScoreDiffer.events(previous: before, current: after)
    #expect(summary(events.filter { $0.type == .setEnded }) == ["setEnded home - 2-2"])
    #expect(events.first { $0.type == .setEnded }?.periodLabel == "Set 4")
    #expect(!events.contains { $0.type == .overtime || $0.type == .goal || $0.type == .scored })
  }

  @Test func goalSportsAndSportsWithoutAProfileKeepTheirGoals() {
    for sport in [Sport.lacrosseMen, .soccerWomen, .iceHockeyMen, .unknown] {
      let before = Self.game(sport, .live, period: 2, 1, 1)
      let after = Self.game(sport, .live, period: 2, 3, 1)
      #expect(ScoreDiffer.events(previous: before, current: after).filter { $0.type == .goal }.count == 2, "\(sport)")
    }
  }
}
