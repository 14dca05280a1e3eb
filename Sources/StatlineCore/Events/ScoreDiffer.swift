/// Turns a stored change of a game into typed events (architecture.md#events): the engine's score differ.
///
/// Pure: the previous stored version, the new one and the same batch's plays in, events out, in
/// the order they happened. The store runs it inside the transaction that writes the game, so
/// each change is derived exactly once.
///
/// Rules:
/// - Scores speak the sport (`SportProfile.scoring`): goals are `game.goal`s (and so for a sport
///   without a profile); points and runs are one `game.scored` per side that scored, with the
///   points it added; sets are a `game.setEnded` per set won. What follows says "goal" for all.
/// - A game the store has never seen is one `game.discovered` with its state then, never a
///   burst of goals for a game found already in progress.
/// - Goals are derived from score increases while the game is followed in progress (the
///   previous version or the new one is live, or `unknown` with a score: a game in progress
///   whose page does not say how, as a calendar between periods); the first version in
///   progress is `game.started`; a game seen only scheduled and then final gets `game.final`
///   alone. A jump by two is two goals, in the order the plays' running scores
///   give (without plays: away's, then home's). A goal names its scorer and assist only when
///   one of the batch's goal plays reaches exactly that running score; never guessed. More
///   than `unexplainedGoalLimit` goals no play tells are one `game.scoreJumped` (with the
///   score before), never one event per goal.
/// - A score that goes down, or a final game whose score changes, is one `game.corrected`
///   (no goals).
/// - Periods that start (and end) between the versions each give `game.periodEnded` /
///   `game.periodStarted`, and `game.overtime` past regulation, ordered with the goals by period.
/// - Postponed, cancelled, suspended or unknown is one `game.status`, except `unknown` with a
///   score: a game in progress between periods, never an event at each break.
/// - A canonical game whose sources' finals come to disagree (a new `conflict`) gives one
///   `game.conflict`.
/// - A canonical game that loses its last source (`Game.retiredInto`) gives one `game.retired`
///   and nothing else; one that gains a source again is `game.discovered` again.
public enum ScoreDiffer {
  /// - Parameters:
  ///   - lastLeader: the side that led last before `previous` (when `previous` is tied), from
  ///     the game's earlier events, for `game.leadChange`.
  public static func events(previous: Game?, current: Game, plays: [Play] = [], lastLeader: Side? = nil)
    -> [ChangeEvent]
  {
    if let into = current.retiredInto {
      guard let previous, !previous.isRetired else { return [] }
      var event = ChangeEvent(.retired, game: current, previous: ChangeEvent.Previous(previous))
      event.details = ["into": into]
      return [event]
    }
    // A retired game that gains a source again is discovered again.
    guard let previous, !previous.isRetired else { return [ChangeEvent(.discovered, game: current)] }
    var events: [ChangeEvent] = []
    let before = ChangeEvent.Previous(previous)
    let status = (old: previous.status, new: current.status)

    let inProgress = (old: Self.inProgress(previous), new: Self.inProgress(current))
    if inProgress.new && !inProgress.old && status.old != .final {
      events.append(ChangeEvent(.started, game: current, previous: before))
    }

    let old = (away: previous.away.score ?? 0, home: previous.home.score ?? 0)
    let new = (away: current.away.score ?? 0, home: current.home.score ?? 0)
    let scoreChanged = old != new
    let wentDown = new.away < old.away || new.home < old.home
    if scoreChanged && (wentDown || (status.old == .final && status.new == .final)) {
      events += periodEvents(previous: previous, current: current)
      events.append(ChangeEvent(.corrected, game: current, previous: before))
    } else {
      let followed = inProgress.old || inProgress.new
      var scores: [ChangeEvent] = []
      if followed && scoreChanged {
        switch current.sport.profile?.scoring ?? .goals {
        case .goals: scores = goalEvents(from: old, to: new, current: current, plays: plays, before: before)
        case .points, .runs: scores = scoredEvents(from: old, to: new, current: current, plays: plays)
        case .sets: scores = setEvents(from: old, to: new, current: current)
        }
      }
      events += ordered(goals: scores, periods: periodEvents(previous: previous, current: current))
      events += leadEvents(
        scores.filter { $0.type != .setEnded && $0.type != .scoreJumped }, from: old, lastLeader: lastLeader)
    }

    if status.new == .final && status.old != .final {
      var final = ChangeEvent(.final, game: current, previous: before)
      final.side = new.away > new.home ? .away : new.home > new.away ? .home : nil
      events.append(final)
    }
    // A scored game `unknown` is in progress between periods (a calendar's "END 3RD"): no
    // status change an app would tell anyone of, at every break.
    if status.new != status.old && [.postponed, .cancelled, .suspended, .unknown].contains(status.new)
      && !(status.new == .unknown && inProgress.new)
    {
      events.append(ChangeEvent(.status, game: current, previous: before))
    }
    if let conflict = current.conflict, conflict != previous.conflict {
      var event = ChangeEvent(.conflict, game: current, previous: before)
      event.details = [
        "kept": conflict.kept, "keptScore": conflict.keptScore, "other": conflict.other,
        "otherScore": conflict.otherScore,
      ]
      events.append(event)
    }
    return sortedLeadEvents(events)
  }

  /// Live, or `unknown` with a score: a game in progress in a state its page does not explain
  /// (a calendar row between periods, "END 3RD"). Such a game is followed like a live one: the
  /// first sighting of it in progress is its start, and goals up to its score are derived.
  static func inProgress(_ game: Game) -> Bool {
    game.status == .live || (game.status == .unknown && (game.away.score != nil || game.home.score != nil))
  }

  /// The goals from `old` to `new`: the batch's goal plays that reach each running score in
  /// turn, then any goals no play explains (away's, then home's).
  static func goalEvents(
    from old: (away: Int, home: Int), to new: (away: Int, home: Int), current: Game, plays: [Play],
    before: ChangeEvent.Previous
  ) -> [ChangeEvent] {
    var score = old
    var events: [ChangeEvent] = []
    func goal(_ side: Side, play: Play?) {
      if side == .away { score.away += 1 } else { score.home += 1 }
      var event = ChangeEvent(.goal, game: current)
      event.side = side
      event.awayScore = score.away
      event.homeScore = score.home
      if let play {
        event.period = play.period ?? current.period
        event.periodLabel = play.periodLabel ?? (play.period == current.period ? current.periodLabel : nil)
        event.clock = play.clock
        event.player = play.player
        event.assist = play.assist
        event.details = play.details
      }
      events.append(event)
    }
    let goals = plays.filter { $0.gameId == current.id && $0.type == .goal }.sorted { $0.sequence < $1.sequence }
    for play in goals {
      guard let away = play.awayScore, let home = play.homeScore, away <= new.away, home <= new.home else { continue }
      if away == score.away + 1 && home == score.home && play.side != .home {
        goal(.away, play: play)
      } else if home == score.home + 1 && away == score.away && play.side != .away {
        goal(.home, play: play)
      }
    }
    // More goals than a poll can hold with no play to tell them: one event that says the score
    // jumped, never one per unit (a bad page's 0 to 2,000,000 was two million goals).
    let unexplained = (new.away - score.away) + (new.home - score.home)
    if unexplained > unexplainedGoalLimit {
      var jumped = ChangeEvent(.scoreJumped, game: current)
      var previous = before
      (previous.awayScore, previous.homeScore) = (score.away, score.home)
      jumped.previous = previous
      jumped.details = ["goals": String(unexplained)]
      return events + [jumped]
    }
    while score.away < new.away { goal(.away, play: nil) }
    while score.home < new.home { goal(.home, play: nil) }
    return events
  }

  /// The most goals one poll derives one by one without plays that tell them: beyond it (a job
  /// that was down for a half, a page gone wrong) the rest is one `game.scoreJumped`.
  public static let unexplainedGoalLimit = 10

  /// A sport scored in points or runs: one `game.scored` per scoring play of the batch that
  /// reaches the next running score (with its points, its scorer, assist and kind), then one per
  /// side for what no play explains (away's first: two versions do not say which came first).
  static func scoredEvents(
    from old: (away: Int, home: Int), to new: (away: Int, home: Int), current: Game, plays: [Play]
  ) -> [ChangeEvent] {
    var events: [ChangeEvent] = []
    var score = old
    func scored(_ side: Side, _ points: Int, play: Play?) {
      if side == .away { score.away += points } else { score.home += points }
      var event = ChangeEvent(.scored, game: current)
      event.side = side
      event.points = points
      event.awayScore = score.away
      event.homeScore = score.home
      if let play {
        event.period = play.period ?? current.period
        event.clock = play.clock
        event.player = play.player
        event.assist = play.assist
        event.details = play.details
      }
      events.append(event)
    }
    let scoring = plays.filter { $0.gameId == current.id && $0.type == .score }.sorted { $0.sequence < $1.sequence }
    for play in scoring {
      guard let away = play.awayScore, let home = play.homeScore, away <= new.away, home <= new.home else { continue }
      if away > score.away && home == score.home && play.side != .home {
        scored(.away, away - score.away, play: play)
      } else if home > score.home && away == score.away && play.side != .away {
        scored(.home, home - score.home, play: play)
      }
    }
    if new.away > score.away { scored(.away, new.away - score.away, play: nil) }
    if new.home > score.home { scored(.home, new.home - score.home, play: nil) }
    return events
  }

  /// A sport scored in sets: one `game.setEnded` per set a side won (its `period` the set's
  /// number), never one per rally.
  static func setEvents(from old: (away: Int, home: Int), to new: (away: Int, home: Int), current: Game)
    -> [ChangeEvent]
  {
    var events: [ChangeEvent] = []
    var score = old
    for side in [Side.away, .home] {
      while side == .away ? score.away < new.away : score.home < new.home {
        if side == .away { score.away += 1 } else { score.home += 1 }
        var event = ChangeEvent(.setEnded, game: current)
        event.side = side
        event.awayScore = score.away
        event.homeScore = score.home
        event.period = score.away + score.home
        event.periodLabel = current.sport.profile?.periodLabel(score.away + score.home)
        event.clock = nil
        events.append(event)
      }
    }
    return events
  }

  /// Each period that ended and started between the versions, and overtime past regulation.
  static func periodEvents(previous: Game, current: Game) -> [ChangeEvent] {
    guard let from = previous.period, let to = current.period, to > from,
      previous.status == .live || current.status == .live
    else { return [] }
    var events: [ChangeEvent] = []
    for period in from..<to {
      var ended = ChangeEvent(.periodEnded, game: current)
      ended.period = period
      ended.periodLabel = nil
      ended.clock = nil
      events.append(ended)
      var started = ChangeEvent(.periodStarted, game: current)
      started.period = period + 1
      started.periodLabel = period + 1 == to ? current.periodLabel : nil
      started.clock = nil
      events.append(started)
      if period + 1 > current.sport.regulationPeriods && current.sport.profile?.overtime != SportProfile.Overtime.none {
        var overtime = started
        overtime.type = .overtime
        events.append(overtime)
      }
    }
    return events
  }

  /// Goals and period changes merged by period: a goal of period p comes after p started.
  static func ordered(goals: [ChangeEvent], periods: [ChangeEvent]) -> [ChangeEvent] {
    guard !periods.isEmpty else { return goals }
    let first = periods.first?.period ?? 0  // the period that ended first
    var result: [ChangeEvent] = []
    var pending = goals[...]
    for event in periods {
      if event.type == .periodEnded {
        // Goals of the ending period (or earlier, or of unknown period when it is the first).
        while let goal = pending.first, (goal.period ?? first) <= event.period ?? 0 {
          result.append(goal)
          pending = pending.dropFirst()
        }
      }
      result.append(event)
    }
    return result + pending
  }

  /// `game.tied` after a goal that levels the score (other than 0-0), `game.leadChange` after
  /// one that puts a side ahead when the other side led last. Each is placed after its goal by
  /// `sortedLeadEvents`.
  static func leadEvents(_ goals: [ChangeEvent], from old: (away: Int, home: Int), lastLeader: Side?) -> [ChangeEvent] {
    var leader = old.away > old.home ? Side.away : old.home > old.away ? .home : lastLeader
    var events: [ChangeEvent] = []
    for goal in goals {
      guard let away = goal.awayScore, let home = goal.homeScore else { continue }
      if away == home {
        events.append(goal.about(.tied, side: nil))
        continue
      }
      let ahead: Side = away > home ? .away : .home
      if let last = leader, last != ahead { events.append(goal.about(.leadChange, side: ahead)) }
      leader = ahead
    }
    return events
  }

  /// Puts each `tied` / `leadChange` right after the goal that reached its score.
  static func sortedLeadEvents(_ events: [ChangeEvent]) -> [ChangeEvent] {
    let lead = events.filter { $0.type == .tied || $0.type == .leadChange }
    guard !lead.isEmpty else { return events }
    var result: [ChangeEvent] = []
    for event in events where event.type != .tied && event.type != .leadChange {
      result.append(event)
      if event.type == .goal || event.type == .scored {
        result += lead.filter { $0.awayScore == event.awayScore && $0.homeScore == event.homeScore }
      }
    }
    return result
  }

  /// The side that led last, from a game's events newest first (goals, discoveries and
  /// corrections carry the score): the first one whose score is not tied.
  public static func lastLeader(newestFirst events: some Sequence<ChangeEvent>) -> Side? {
    for event in events {
      guard let away = event.awayScore, let home = event.homeScore else { continue }
      if away != home { return away > home ? .away : .home }
    }
    return nil
  }
}

extension ChangeEvent {
  /// An event of `type` at this goal's moment and score, without the goal's scorer.
  func about(_ type: Kind, side: Side?) -> ChangeEvent {
    var event = self
    event.type = type
    event.side = side
    event.player = nil
    event.assist = nil
    event.points = nil
    event.details = [:]
    return event
  }
}
