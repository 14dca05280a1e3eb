import StatlineCore

/// Which sport's columns a stats.ncaa.org box score prints, told by the header words only that
/// sport prints (the contest page names no sport): its column dictionary, its scoring column and,
/// with the line score or the target's sport, the game's sport.
enum BoxFamily: String, Sendable, Equatable, CaseIterable {
  case lacrosse, basketball, baseball, football, soccer, volleyball, iceHockey

  /// The family whose tell-tale columns the tables print (headers lower-cased); nil for none.
  /// Ice hockey is asked before lacrosse (both print faceoffs), football before basketball (a
  /// kicker's `FGM`), volleyball and baseball before soccer (all print assists), soccer last:
  /// goals and shots with none of the others' words.
  static func of(_ headers: Set<String>) -> BoxFamily? {
    if !headers.isDisjoint(with: ["pim", "+/-", "ppg", "shg"]) { return .iceHockey }
    if !headers.isDisjoint(with: ["dc", "draw controls", "fo won", "fos taken"])
      || headers.isSuperset(of: ["gb", "ct"])
    {
      return .lacrosse
    }
    if headers.contains(where: { $0.hasPrefix("pass ") || $0.hasPrefix("rush ") || $0.hasPrefix("rec ") })
      || !headers.isDisjoint(with: ["cmp", "sacks", "solo tackles", "punt yds"])
    {
      return .football
    }
    if !headers.isDisjoint(with: ["fgm", "3fg", "3fga", "tot reb", "orebs"]) { return .basketball }
    if headers.isSuperset(of: ["ab", "rbi"]) || headers.isSuperset(of: ["ip", "er"]) { return .baseball }
    if !headers.isDisjoint(with: ["kills", "digs", "block solos", "serr"]) { return .volleyball }
    if !headers.isDisjoint(with: ["goals", "g"]) && !headers.isDisjoint(with: ["shatt", "sh", "shots", "sog"]) {
      return .soccer
    }
    return nil
  }

  /// The family's sports: what a target's sport may name.
  var sports: Set<Sport> {
    switch self {
    case .lacrosse: [.lacrosseMen, .lacrosseWomen]
    case .basketball: [.basketballMen, .basketballWomen]
    case .baseball: [.baseball, .softball]
    case .football: [.football]
    case .soccer: [.soccerMen, .soccerWomen, .soccer, .fieldHockey]
    case .volleyball: [.volleyballMen, .volleyballWomen, .volleyball]
    case .iceHockey: [.iceHockeyMen, .iceHockeyWomen]
    }
  }

  /// The game's sport, from what the page says first, then the target's sport (`hint`): draw
  /// controls are women's lacrosse; basketball's line score has two halves (men's) or four
  /// quarters (women's); soccer's columns with four quarters are field hockey, with two halves
  /// soccer (`periods`: the line score's numbered periods, nil without a line score). What
  /// neither says is the family's sport without a gender (`soccer`, `volleyball`), or `unknown`
  /// with a warning (men's or women's ice hockey), never a guess; baseball or softball is
  /// refused unsaid (its innings, a home ninth left out, are checked only in a sport of innings).
  func sport(
    headers: Set<String>, periods: Int?, hint: Sport?, warnings: inout [String]
  ) throws(StatlineError) -> Sport {
    let hinted = hint.flatMap { sports.contains($0) ? $0 : nil }
    switch self {
    case .lacrosse:
      return !headers.isDisjoint(with: ["dc", "draw controls"]) ? .lacrosseWomen : .lacrosseMen
    case .basketball:
      return periods == 2 ? .basketballMen : periods == 4 ? .basketballWomen : hinted ?? .unknown
    case .football:
      return .football
    case .soccer:
      if periods == 4 || (periods == nil && hinted == .fieldHockey) { return .fieldHockey }
      return hinted == .fieldHockey ? .soccer : hinted ?? .soccer
    case .volleyball:
      return hinted ?? .volleyball
    case .baseball:
      if let hinted { return hinted }
      throw StatlineError(
        .unsupported,
        "the box score's columns are baseball's or softball's, and the page does not say baseball or softball "
          + "(nor does its target)",
        hint: "poll it from a target with `sport: baseball` or `softball` (discovery from a scoreboard names it), "
          + "or replay it with --sport baseball")
    case .iceHockey:
      if let hinted { return hinted }
      warnings.append(
        "the page does not say men's or women's ice hockey and the target names no sport: the sport is unknown")
      return .unknown
    }
  }

  /// The column the players' numbers must add up to the score in, and that a player table of
  /// the family must have: goals, points, batters' runs; none for football (a safety is the
  /// team's) and volleyball (sets won).
  var scoringKey: String? {
    switch self {
    case .lacrosse, .soccer, .iceHockey: StatKey.goals
    case .basketball: "points"
    case .baseball: "runs"
    case .football, .volleyball: nil
    }
  }
}
