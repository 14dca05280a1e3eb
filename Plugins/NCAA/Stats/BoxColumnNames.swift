import StatlineCore

/// The header words of stats.ncaa.org's individual-stats tables, per sport (as printed, lower-
/// cased, `<br />` read as a space) → columns. Lacrosse's come from real pages; basketball's,
/// baseball's and volleyball's from the column names public scrapers of the site read
/// (baseballr, ncaavolleyballr); football's, soccer's and ice hockey's from the sports' usual
/// abbreviations, not yet seen on a real page of the site (football's passing, rushing and
/// receiving names are a real page's): a header not listed is reported as a
/// warning, never guessed. Known columns the model does not keep (ratios, games started, balks)
/// are `ignored` without a warning.
enum BoxColumnNames {
  typealias Column = BoxColumns.Column

  static let common: [String: Column] = [
    "#": .number, "no": .number, "name": .name, "player": .name, "p": .position, "pos": .position,
  ]

  static let lacrosse: [String: Column] = [
    "min": .minutes, "g min": .minutes, "mins": .minutes,
    "goals": .stat(StatKey.goals), "g": .stat(StatKey.goals), "assists": .stat(StatKey.assists),
    "a": .stat(StatKey.assists), "points": .stat(StatKey.points), "pts": .stat(StatKey.points),
    "shots": .stat(StatKey.shots), "sog": .stat(StatKey.shotsOnGoal), "gb": .stat(StatKey.groundBalls),
    "to": .stat(StatKey.turnovers), "ct": .stat(StatKey.causedTurnovers),
    "fo won": .stat(StatKey.faceoffsWon), "fos taken": .stat(StatKey.faceoffsTaken),
    "fo taken": .stat(StatKey.faceoffsTaken), "dc": .stat(StatKey.drawControls),
    "draw controls": .stat(StatKey.drawControls), "fps": .stat(StatKey.freePositionShots),
    "fp shots": .stat(StatKey.freePositionShots), "fpg": .stat(StatKey.freePositionGoals),
    "fp goals": .stat(StatKey.freePositionGoals), "goals allowed": .stat(StatKey.goalsAllowed),
    "ga": .stat(StatKey.goalsAllowed), "saves": .stat(StatKey.saves), "pen": .stat(StatKey.penalties),
    "penalties": .stat(StatKey.penalties), "gaa": .ignored, "save pct": .ignored, "sv pct": .ignored,
    "pen time": .penaltyTime, "clears": .stat(StatKey.clearsMade), "clear att": .stat(StatKey.clearsAttempted),
    "clears att": .stat(StatKey.clearsAttempted), "clear pct": .ignored,
  ]

  /// Made/attempted pairs, rebounds, minutes as `MP`.
  static let basketball: [String: Column] = [
    "mp": .minutes, "min": .minutes, "fgm": .stat("fieldGoalsMade"), "fga": .stat("fieldGoalsAttempted"),
    "3fg": .stat("threePointersMade"), "3fga": .stat("threePointersAttempted"), "ft": .stat("freeThrowsMade"),
    "fta": .stat("freeThrowsAttempted"), "pts": .stat("points"), "orebs": .stat("offensiveRebounds"),
    "drebs": .stat("defensiveRebounds"), "tot reb": .stat("rebounds"), "ast": .stat(StatKey.assists),
    "to": .stat(StatKey.turnovers), "stl": .stat("steals"), "blk": .stat("blocks"), "fouls": .stat("fouls"),
    "dq": .ignored, "tech fouls": .ignored, "fg%": .ignored, "3fg%": .ignored, "ft%": .ignored,
    // A 2025 page's last column (a starter's 0): not a stat the model keeps.
    "bench": .ignored,
  ]

  /// A baseball or softball table: pitching when it prints innings pitched, fielding when it
  /// prints putouts and no at-bats, else batting (`H`, `R`, `BB` and `K` mean a batter's in one
  /// and a pitcher's in the other).
  static func baseball(_ headers: Set<String>) -> [String: Column] {
    if headers.contains("ip") { return pitching }
    if headers.contains("po") && !headers.contains("ab") { return fielding }
    return batting
  }

  static let batting: [String: Column] = [
    "ab": .stat("atBats"), "r": .stat("runs"), "h": .stat("hits"), "2b": .stat("doubles"),
    "3b": .stat("triples"), "hr": .stat("homeRuns"), "rbi": .stat("runsBattedIn"), "bb": .stat("walks"),
    "k": .stat("strikeouts"), "so": .stat("strikeouts"), "hbp": .stat("hitByPitch"), "sb": .stat("stolenBases"),
    "cs": .stat("caughtStealing"), "sh": .stat("sacrificeHits"), "sf": .stat("sacrificeFlies"),
    "lob": .stat("leftOnBase"), "tb": .ignored, "opp dp": .ignored, "picked": .ignored, "ibb": .ignored,
    "gdp": .ignored, "rbi2out": .ignored, "kl": .ignored, "ba": .ignored, "obpct": .ignored, "slgpct": .ignored,
    "go": .ignored, "fo": .ignored, "dp": .ignored, "gp": .ignored, "gs": .ignored,
  ]

  static let pitching: [String: Column] = [
    "ip": .outs, "h": .stat("hitsAllowed"), "r": .stat("runsAllowed"), "er": .stat("earnedRunsAllowed"),
    "bb": .stat("walksAllowed"), "so": .stat("strikeoutsPitched"), "k": .stat("strikeoutsPitched"),
    "hr-a": .stat("homeRunsAllowed"), "pitches": .stat("pitches"), "bf": .stat("battersFaced"),
    "app": .ignored, "gs": .ignored, "cg": .ignored, "sho": .ignored, "p-oab": .ignored, "2b-a": .ignored,
    "3b-a": .ignored, "bk": .ignored, "wp": .ignored, "hb": .ignored, "ibb": .ignored, "inh run": .ignored,
    "inh run score": .ignored, "sha": .ignored, "sfa": .ignored, "go": .ignored, "fo": .ignored, "w": .ignored,
    "l": .ignored, "sv": .ignored, "ordappeared": .ignored, "kl": .ignored, "era": .ignored, "gp": .ignored,
  ]

  static let fielding: [String: Column] = [
    "po": .stat("putouts"), "a": .stat("fieldingAssists"), "e": .stat("errors"), "tc": .ignored, "ci": .ignored,
    "pb": .ignored, "sba": .ignored, "csb": .ignored, "idp": .ignored, "tp": .ignored, "fldpct": .ignored,
    "gp": .ignored, "gs": .ignored,
  ]

  /// A football table: its category told by its words (completions: passing; receptions:
  /// receiving; tackles or sacks: defense; field goals: kicking; punts: punting; else rushing),
  /// so a bare `Att`, `Yds`, `TD` or `Interceptions` is read as that category's. Prefixed names
  /// (`Pass Attempts`, `Rush TDs`) are read in any table.
  static func football(_ headers: Set<String>) -> [String: Column] {
    let category: [String: Column]
    if !headers.isDisjoint(with: ["cmp", "comp", "pass comp", "completions"]) {
      category = [
        "att": .stat("passAttempts"), "yds": .stat("passingYards"), "td": .stat("passingTouchdowns"),
        "interceptions": .stat("interceptionsThrown"),
      ]
    } else if !headers.isDisjoint(with: ["rec", "receptions"]) {
      category = ["yds": .stat("receivingYards"), "td": .stat("receivingTouchdowns")]
    } else if !headers.isDisjoint(with: ["solo", "solo tackles", "sacks", "tot", "tackles"]) {
      category = [
        "int": .stat("interceptions"), "interceptions": .stat("interceptions"), "ast": .stat("assistedTackles"),
      ]
    } else if !headers.isDisjoint(with: ["fgm", "fga"]) {
      category = [:]
    } else if !headers.isDisjoint(with: ["punts", "no"]) && headers.contains("yds") {
      category = ["yds": .stat("puntYards"), "no": .stat("punts")]
    } else {
      category = [
        "att": .stat("rushes"), "car": .stat("rushes"), "yds": .stat("rushingYards"), "td": .stat("rushingTouchdowns"),
      ]
    }
    return footballNamed.merging(category) { $1 }
  }

  /// Football's names, in any category's table. The individual-stats tab prints one card per
  /// team and category (a real 2024 page: Rushing `Rush Attempts`, `Rush Yds Gained`,
  /// `Rush Yds Lost`, `Yds/Rush`, `Rush TDs`, `Rush Long`; Passing `Pass Attempts`,
  /// `Completions`, `Pass Yards`, `Interceptions`, `Pass TDs`, `Pass Eff`, `Yds Per Completion`,
  /// `Pct`, `Long Pass`; Receiving `Rec`, `Receiving Yards`, `Yards Per Reception`, `Rec TD`,
  /// `Long Rec`); rushing yards are the yards gained less the yards lost, as StatCrew's net. The
  /// other categories' names are the sport's usual abbreviations, not yet seen on a real page.
  static let footballNamed: [String: Column] = [
    "cmp": .stat("passCompletions"), "comp": .stat("passCompletions"), "pass comp": .stat("passCompletions"),
    "completions": .stat("passCompletions"), "pass att": .stat("passAttempts"), "pass attempts": .stat("passAttempts"),
    "pass yds": .stat("passingYards"), "pass yards": .stat("passingYards"), "pass td": .stat("passingTouchdowns"),
    "pass tds": .stat("passingTouchdowns"), "int": .stat("interceptionsThrown"),
    "pass int": .stat("interceptionsThrown"), "pass eff": .ignored, "yds per completion": .ignored,
    "long pass": .ignored,
    "rush att": .stat("rushes"), "rush attempts": .stat("rushes"), "rush yds": .stat("rushingYards"),
    "rush net yds": .stat("rushingYards"), "rush yds gained": .part("rushingYards", sign: 1),
    "rush yds lost": .part("rushingYards", sign: -1), "rush td": .stat("rushingTouchdowns"),
    "rush tds": .stat("rushingTouchdowns"), "yds/rush": .ignored, "rush long": .ignored,
    "rec": .stat("receptions"), "receptions": .stat("receptions"), "rec yds": .stat("receivingYards"),
    "receiving yards": .stat("receivingYards"), "rec td": .stat("receivingTouchdowns"),
    "rec tds": .stat("receivingTouchdowns"), "yards per reception": .ignored, "long rec": .ignored,
    "tot": .stat("tackles"),
    "tackles": .stat("tackles"), "solo": .ignored, "solo tackles": .ignored,
    "asst tackles": .stat("assistedTackles"), "sacks": .stat("sacks"), "ff": .stat("fumblesForced"),
    "fr": .stat("fumblesRecovered"), "fgm": .stat("fieldGoalsMade"), "fga": .stat("fieldGoalsAttempted"),
    "xpm": .stat("extraPointsMade"), "xpa": .stat("extraPointsAttempted"), "pat made": .stat("extraPointsMade"),
    "pat att": .stat("extraPointsAttempted"), "punts": .stat("punts"), "punt yds": .stat("puntYards"),
    "pts": .ignored, "points": .ignored, "long": .ignored, "lg": .ignored, "avg": .ignored, "pct": .ignored,
    "rating": .ignored, "gp": .ignored, "gs": .ignored,
  ]

  /// Soccer and field hockey, field players and goalkeepers.
  static let soccer: [String: Column] = [
    "min": .minutes, "minutes": .minutes, "goals": .stat("goals"), "g": .stat("goals"), "assists": .stat("assists"),
    "a": .stat("assists"), "points": .stat("points"), "pts": .stat("points"), "shatt": .stat("shots"),
    "sh": .stat("shots"), "shots": .stat("shots"), "sog": .stat("shotsOnGoal"), "saves": .stat("saves"),
    "sv": .stat("saves"), "ga": .stat("goalsAllowed"), "goals allowed": .stat("goalsAllowed"),
    "fouls": .stat("fouls"), "yc": .stat("yellowCards"), "yellow cards": .stat("yellowCards"),
    "rc": .stat("redCards"), "red cards": .stat("redCards"), "ck": .stat("corners"), "corners": .stat("corners"),
    "off": .stat("offsides"), "offsides": .stat("offsides"), "gs": .ignored, "gp": .ignored, "gwg": .ignored,
    "gaa": .ignored, "sv pct": .ignored, "save pct": .ignored, "pk": .ignored, "pka": .ignored,
  ]

  static let volleyball: [String: Column] = [
    "kills": .stat("kills"), "k": .stat("kills"), "errors": .stat("attackErrors"), "e": .stat("attackErrors"),
    "total attacks": .stat("attackAttempts"), "ta": .stat("attackAttempts"), "assists": .stat("assists"),
    "ast": .stat("assists"), "aces": .stat("serviceAces"), "sa": .stat("serviceAces"),
    "serr": .stat("serviceErrors"), "se": .stat("serviceErrors"), "digs": .stat("digs"),
    "rerr": .stat("receptionErrors"), "re": .stat("receptionErrors"), "block solos": .stat("blockSolos"),
    "bs": .stat("blockSolos"), "block assists": .stat("blockAssists"), "ba": .stat("blockAssists"),
    "berr": .stat("blockErrors"), "be": .stat("blockErrors"), "pts": .wholePoints("points"), "s": .ignored,
    "sp": .ignored, "hit pct": .ignored, "pct": .ignored, "retatt": .ignored, "reatt": .ignored, "bhe": .ignored,
    "tb": .ignored, "gp": .ignored, "gs": .ignored,
  ]

  static let iceHockey: [String: Column] = [
    "min": .minutes, "toi": .minutes, "goals": .stat("goals"), "g": .stat("goals"), "assists": .stat("assists"),
    "a": .stat("assists"), "pts": .stat("points"), "points": .stat("points"), "sh": .stat("shots"),
    "shots": .stat("shots"), "pn": .stat("penalties"), "pim": .penaltyMinutes, "+/-": .stat("plusMinus"),
    "ppg": .stat("powerPlayGoals"), "shg": .stat("shortHandedGoals"), "fow": .stat("faceoffsWon"),
    "saves": .stat("saves"), "sv": .stat("saves"), "ga": .stat("goalsAllowed"), "gwg": .ignored,
    "fol": .ignored, "gaa": .ignored, "sv pct": .ignored, "gp": .ignored, "gs": .ignored,
  ]

  /// The columns a family's table reads, by the table's own headers where the family's tables
  /// differ (baseball's batting and pitching, football's categories).
  static func dictionary(_ family: BoxFamily, table headers: Set<String>) -> [String: Column] {
    switch family {
    case .lacrosse: lacrosse
    case .basketball: basketball
    case .baseball: baseball(headers)
    case .football: football(headers)
    case .soccer: soccer
    case .volleyball: volleyball
    case .iceHockey: iceHockey
    }
  }

  /// Every family's columns, each table kind once: what a test holds to the sports' keys.
  static let all: [(String, [String: Column])] = [
    ("lacrosse", lacrosse), ("basketball", basketball), ("batting", batting), ("pitching", pitching),
    ("fielding", fielding), ("football", footballNamed),
    (
      "football categories",
      football(["cmp"]).merging(football(["rec"])) { $1 }.merging(football(["tot"])) { $1 }
        .merging(football(["punts", "yds"])) { $1 }.merging(football([])) { $1 }
    ),
    ("soccer", soccer), ("volleyball", volleyball), ("ice hockey", iceHockey),
  ]
}
