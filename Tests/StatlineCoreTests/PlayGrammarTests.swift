import StatlineCore
import Testing

/// The byte grammar must read every text as the regular-expression grammar did: thousands of
/// generated texts, edge forms included, against `ReferenceGrammar`.
@Suite struct PlayGrammarTests {
  static let tokens = ["NORTH CA", "IONA", "North Carolina", "Iona"]
  static let names = [
    "Neary, Luke", "Brady Wambach", "Caldwell II, David", "  Smith ,  John ", "X", "Van der Berg,Jan", ",Solo",
    "A. Smith.", "Lee\tKim", "Ünal, Öz",
  ]
  static let templates = [
    "Shot by {T} {N}, SAVE {M}", "Shot by {T} {N} WIDE", "Shot by {T} {N} HIT POST.", "Shot by {T} {N}",
    "Shot by {T} {N} HIT CROSSBAR", "GOAL by {T} {N}.", "GOAL by {T} {N} (FIRST GOAL).",
    "GOAL by {T} {N}, Assist by {M}.", "GOAL by {T} {N} (MAN-UP), Assist by {M}, goal number 3 for season.",
    "GOAL by {T} {N} ()", "GOAL by {T}.", "GOAL by {T} {N} (unclosed", "GOAL by {T} {N}, goal number 12 for season",
    "GOAL by {T} {N}, Assist by {M}, goal number x for season.", "GOAL by {T} {N}, Assist by .",
    // Runs of annotations, in any order and number, known and unseen, after the scorer or the assist.
    "GOAL by {T} {N} (MAN-UP) (FIRST GOAL), Assist by {M}, goal number 37 for season.",
    "GOAL by {T} {N} (EMPTY NET) (GAME-WINNING) (SHORT-HANDED).", "GOAL by {T} {N} (FREE POSITION) (UNASSISTED)",
    "GOAL by {T} {N} (UNASSISTED) (MAN-UP), goal number 2 for season", "GOAL by {T} {N} (NEW THING 2) ().",
    "GOAL by {T} {N}, Assist by {M} (MAN-UP) (FIRST GOAL).", "GOAL by {T} {N} (FIRST GOAL), Assist by {M} (EMPTY NET)",
    "GOAL by {T} {N} (MAN-UP)(FIRST GOAL).", "GOAL by {T} {N} (MAN-UP) (FIRST GOAL", "GOAL by {T} {N} (A (B) (C).",
    "GOAL by {T} {N} (MAN-UP), Assist by {M} (unclosed.", "GOAL by {T} {N} (MAN-UP) x (FIRST GOAL).",
    // Other bracket kinds, mixed, unclosed and unknown tails (real: a women's StatCrew file).
    "GOAL by {T} {N} (FPGOAL) {free position shot}, goal number 9 for season.",
    "GOAL by {T} {N} {free position shot} (FPGOAL), Assist by {M} [MAN-UP].", "GOAL by {T} {N} [EMPTY NET].",
    "GOAL by {T} {N}, Assist by {M} {DRAW} [x] (y).", "GOAL by {T} {N} {unclosed", "GOAL by {T} {N} [a (b] {c}.",
    "GOAL by {T} {N} {a}{b}.", "GOAL by {T} {N} on a rebound.", "GOAL by {T} {N}, scored on a rebound",
    "GOAL by {T} {N} (MAN-UP) - video review.",
    "Penalty on {T} {N} (SLASHING/1:00)", "Penalty on {T} {N} (PUSHING/0:30).", "Penalty on {T} {N} (FOUL/x:00)",
    "Penalty on {T} {N} (A (B)/1:00)", "Penalty on {T} {N} (UNSPORTSMANLIKE CONDUCT/3:00) [NR]",
    "Penalty on {T} {N} (/1:00)", "Penalty on {T} {N} (HOLD/10:5)", "{N} at goalie for {T}.", " at goalie for {T}",
    "{N} at goalie for ", "Draw control by {T} {N}.", "Draw control by {T} .", "Draw control by {T} x",
    "Draw control by {T}", "Ground ball pickup by {T} {N}.", "Ground ball pickup by {T}.", "Turnover by {T}",
    "Shot clock violation by {T}.", "Turnover by {T} {N} (caused by {M}).", "Turnover by {T} {N} (caused by",
    "Turnover by {T} {N} (x)", "Clear attempt by {T} good.", "Clear attempt by {T} failed",
    "Clear attempt by {T} maybe.", "Faceoff {N} vs {M} won by {T}, [15:00] Ground ball pickup by {T} {M}.",
    "Faceoff {N} vs {M}", "End-of-period.", "End of 1st period", "Start of 2nd period", "Media timeout.",
    "Timeout by {T}.", "Turnover on {T} {N}.", "Penalty on {T} {N} (TRIPPING/1:00) by {T} ", "Shot by {T}{N} WIDE",
  ]

  @Test func theByteGrammarReadsEveryTextAsTheRegularExpressionsDid() {
    var compared = 0
    for template in Self.templates {
      for team in Self.tokens + ["DUKE", "NORTH"] {
        for name in Self.names {
          for other in ["Gibstein, Cole", "Josh Marcus"] {
            let body = template.replacingOccurrences(of: "{T}", with: team)
              .replacingOccurrences(of: "{N}", with: name).replacingOccurrences(of: "{M}", with: other)
            for text in [body, "  \(body) "] {
              for teams in [Self.tokens, [team] + Self.tokens] {
                let action = template.hasPrefix("GOAL") ? "GOAL" : "ZZZ"
                let read = LacrossePlayText.read(action: action, text: text, teams: teams)
                let reference = ReferenceGrammar.read(action: action, text: text, teams: teams)
                #expect(read == reference, "\(text.debugDescription) with \(teams)")
                compared += 1
              }
            }
          }
        }
      }
    }
    #expect(compared > 10_000)
  }

  @Test func namesAndClocksReadAsBefore() {
    for name in Self.names + ["", " ", ",", "a,", ",b", "a , b , c", "Mary\r\nJones", "Kim  Lee", "Li "] {
      #expect(PersonName.normalized(name) == ReferenceGrammar.name(name), "\(name.debugDescription)")
    }
    for clock in [
      "15:00", "5:07", "00:00", " 4:30", "4:60", "12:5", "123:45", "1::30", ":30", "12:", "ab:cd", "-0:10", "+1:00", "",
    ] {
      #expect(GameText.clock(clock) == ReferenceGrammar.clock(clock), "\(clock.debugDescription)")
    }
  }
}

/// Goals with parenthesized annotations, read on their own (not only against the oracle).
@Suite struct GoalAnnotationTests {
  @Test func aGoalWithARunOfAnnotationsIsAGoalByItsScorerWithItsAssist() {
    let text = "GOAL by TEAM First Last (MAN-UP) (FIRST GOAL), Assist by Other Player, goal number 37 for season."
    for action in ["", "GOAL"] {
      let read = LacrossePlayText.read(action: action, text: text, teams: ["TEAM"])
      #expect(
        read
          == LacrossePlayText(
            type: .goal, player: "First Last", assist: "Other Player",
            details: ["manUp": "true", "firstGoal": "true", "note": "MAN-UP, FIRST GOAL"]))
    }
  }

  /// A live women's StatCrew file prints free-position goals this way (3 of its 12 goals).
  @Test func aFreePositionGoalInBracesIsAFreePositionGoalByItsScorer() {
    let text = "GOAL by NC Brooklyn Neumen (FPGOAL) {free position shot}, goal number 9 for season."
    let read = LacrossePlayText.read(action: "SHOT", text: text, teams: ["NC", "BK"])
    #expect(
      read
        == LacrossePlayText(
          type: .goal, player: "Brooklyn Neumen",
          details: [
            "freePosition": "true", "fpgoal": "true", "freePositionShot": "true", "note": "FPGOAL, free position shot",
          ]))
    let assisted = LacrossePlayText.read(
      action: "", text: "GOAL by NC Neumen, Brooklyn [MAN-UP], Assist by Kim Lee {FREE POSITION}.", teams: ["NC"])
    #expect((assisted.player, assisted.assist) == ("Brooklyn Neumen", "Kim Lee"))
    #expect(assisted.details["manUp"] == "true" && assisted.details["freePosition"] == "true")
  }

  /// What follows a goal's scorer that no rule reads is kept, and the goal is still its scorer's.
  @Test func aGoalInItsLeadingFormWithAnUnknownRestIsStillAGoal() {
    for (text, tail) in [
      ("GOAL by NC Brooklyn Neumen (unclosed note", "(unclosed note"),
      ("GOAL by NC Brooklyn Neumen (MAN-UP) - video review.", "(MAN-UP) - video review."),
      ("GOAL by NC Brooklyn Neumen {FPGOAL}, goal number x for season.", "{FPGOAL}, goal number x for season."),
    ] {
      let read = LacrossePlayText.read(action: "", text: text, teams: ["NC"])
      #expect(read.type == .goal && read.player == "Brooklyn Neumen" && read.assist == nil, "\(text)")
      #expect(read.details == ["unreadTail": tail], "\(text)")
    }
  }

  @Test func everyKnownAnnotationAndAnUnseenOneReadInAnyOrderAndNumber() {
    let notes = [
      ("MAN-UP", "manUp"), ("FIRST GOAL", "firstGoal"), ("EMPTY NET", "emptyNet"), ("GAME-WINNING", "gameWinning"),
      ("FREE POSITION", "freePosition"), ("SHORT-HANDED", "shortHanded"), ("UNASSISTED", "unassisted"),
      ("HAT TRICK 3", "hatTrick3"),
    ]
    for count in 1...notes.count {
      for rotation in 0..<notes.count {
        let chosen = (0..<count).map { notes[($0 + rotation) % notes.count] }
        let run = chosen.map { " (\($0.0))" }.joined()
        for assist in [nil, "Neary, Luke"] {
          let text = "GOAL by NORTH CA Wambach, Brady\(run)" + (assist.map { ", Assist by \($0)" } ?? "") + "."
          let read = LacrossePlayText.read(action: "", text: text, teams: ["NORTH CA", "IONA"])
          #expect(read.type == .goal, "\(text)")
          #expect(read.player == "Brady Wambach", "\(text)")
          #expect(read.assist == assist.map { _ in "Luke Neary" }, "\(text)")
          for (_, key) in chosen { #expect(read.details[key] == "true", "\(key) of \(text)") }
          #expect(read.details["note"] == chosen.map(\.0).joined(separator: ", "))
        }
      }
    }
  }

  @Test func annotationKeysAreCamelCaseWords() {
    #expect(LacrossePlayText.annotationKey("MAN-UP") == "manUp")
    #expect(LacrossePlayText.annotationKey("  extra   man ") == "extraMan")
    #expect(LacrossePlayText.annotationKey("2ND GOAL") == "2ndGoal")
    #expect(LacrossePlayText.annotationKey("") == nil)
    #expect(LacrossePlayText.annotationKey("--") == nil)
  }

  /// Found by the play-grammar fuzz target (`scripts/fuzz 600`): twenty digits of penalty
  /// minutes overflowed the seconds and trapped. More than three digits is not a penalty time.
  @Test func aPenaltyTimeOfTwentyDigitsIsNotAPenaltyTime() {
    let long = "Penalty on IONA Sam (SLASHING/" + String(repeating: "1", count: 20) + ":00)"
    #expect(LacrossePlayText.read(action: "", text: long, teams: ["IONA"]).details["seconds"] == nil)
    let read = LacrossePlayText.read(action: "", text: "Penalty on IONA Sam (SLASHING/120:00)", teams: ["IONA"])
    #expect(read.type == .penalty && read.details["seconds"] == "7200")
    let four = LacrossePlayText.read(action: "", text: "Penalty on IONA Sam (SLASHING/1200:00)", teams: ["IONA"])
    #expect(four.details["seconds"] == nil)
  }

  @Test func anActionCodeInAnyCaseAndATimeoutInTheTextAreTyped() {
    let codes: [(String, PlayType)] = [
      ("GOAL", .goal), ("shot", .shot), ("Face", .faceoff), ("gb", .groundBall), ("TURN", .turnover),
      ("pen", .penalty), ("TOUT", .timeout), ("clear", .clear), ("DC", .drawControl), ("draw", .drawControl),
      ("GOALIE", .goalieChange), ("end-prd", .periodEnd), ("PRD", .periodStart), ("SUB", .other), ("", .other),
    ]
    for (action, type) in codes {
      #expect(LacrossePlayText.type(ofAction: action, text: "x") == type, "\(action)")
    }
    for text in ["Media timeout.", "TIMEOUT by IONA", "a TimeOut", "timeout"] {
      #expect(LacrossePlayText.type(ofAction: "", text: text) == .timeout, "\(text)")
    }
    for text in ["time out", "timeou", "", "Timeo-ut", "tímeout"] {
      #expect(LacrossePlayText.type(ofAction: "", text: text) == .other, "\(text)")
    }
  }
}
