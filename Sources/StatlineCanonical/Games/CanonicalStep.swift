import Foundation
import StatlineCore

/// What a store does with a batch's source games before it writes them (architecture.md#canonical-games): each
/// is placed in its canonical game (`GameMatcher`), stamped with that game's id, and the
/// canonical game is merged again (`GameMerger`) from every source it holds. The store writes
/// the stamped source games and the merged canonical games in the same transaction, and derives
/// events from the canonical games only.
///
/// The step reads in two rounds, which a store answers from its tables (SQLite inside its one
/// writer, PostgreSQL checked again at commit by the records' hashes):
/// 1. `candidateIds`: the ids of the canonical games a source game could belong to (its date
///    and the day either side, its sport and its two teams: canonical ids are made of these);
/// 2. `memberIds`: the source games those canonical games hold, with when each last changed.
/// Then `merge` works out the records. A game equal to what the store holds (but for the stamp)
/// is only stamped, and costs no read; one the store placed before reads only its canonical game
/// (`Stamping`).
public struct CanonicalStep: Sendable {
  /// A source game as the store holds it, and when its record last changed.
  public struct StoredSource: Sendable {
    public var game: Game
    public var changedAt: Date?

    public init(game: Game, changedAt: Date?) {
      self.game = game
      self.changedAt = changedAt
    }
  }

  public let merger: GameMerger
  /// Each team line's identity as the registry resolved it: a poll asks for the same few teams
  /// again and again (the batch's, its candidates', its members').
  private let identities: TeamIdentities

  /// False only in benchmarks that measure what merging costs (`bench cycle --no-merge`): the
  /// store then keeps source games alone, with no canonical games and so no events.
  public let merges: Bool

  /// Set only by benchmarks (`bench cycle`): the CPU a store spends merging (this step, and
  /// encoding and writing the canonical games it gives) is measured on it.
  public let meter: CPUMeter?

  public init(merger: GameMerger, merges: Bool = true, meter: CPUMeter? = nil) {
    self.merger = merger
    self.merges = merges
    self.meter = meter
    identities = TeamIdentities()
  }

  /// A source game with its teams resolved (from the cache when seen before).
  func sourceGame(_ game: Game, liveChangedAt: Date) -> SourceGame {
    SourceGame(
      game: game, awayTeam: identity(game.away.team), homeTeam: identity(game.home.team), liveChangedAt: liveChangedAt,
      feed: merger.feeds.feed(of: game.id))
  }

  /// `SourceGame`'s identity of a team line: its canonical team id, else `source:` and its own.
  func identity(_ ref: TeamRef) -> String {
    identities.identity(of: ref) { ref in
      merger.registry.resolve(SourceTeam(ref))?.team.id ?? "source:" + (ref.id ?? ref.name)
    }
  }

  /// The seeded registry, no aliases, and no plugin's feeds (`SourceFeeds.undeclared`): what a
  /// store made without a job uses. The job's stores merge with its registry's feeds and the
  /// configuration (`teams.aliases`, `merge.precedence`): `CanonicalStep(feeds:…)`.
  public static let standard: CanonicalStep = {
    do {
      return CanonicalStep(merger: GameMerger(feeds: .undeclared, registry: try TeamRegistry.seeded()))
    } catch {
      // The seed ships with the module and is checked by its tests: failing here is a broken install.
      fatalError("the team registry's seed does not load: \(error)")
    }
  }()

  /// The ids of the canonical games `games` could belong to: for each, its sport and teams on
  /// its date and the day either side, as the game of the day numbered `numbers` (1…4 first:
  /// a doubleheader is two; `unfinished` says when to look further).
  public func candidateIds(of games: [Game], numbers: ClosedRange<Int> = 1...meetings) -> [String] {
    var ids: [String] = []
    var seen: Set<String> = []
    for game in games {
      let source = sourceGame(game, liveChangedAt: .distantPast)
      for id in Self.candidateIds(of: source, numbers: numbers) where seen.insert(id).inserted { ids.append(id) }
    }
    return ids
  }

  /// The games whose candidates were all found up to `number`: the same two teams met more
  /// often within a day either side, and the next numbers must be looked up too.
  public func unfinished(_ games: [Game], found: Set<String>, upTo number: Int) -> [Game] {
    games.filter { game in
      let source = sourceGame(game, liveChangedAt: .distantPast)
      return Self.candidateIds(of: source, numbers: number...number).contains(where: found.contains)
    }
  }

  /// The numbers to look up after `numbers`: twice as many.
  public static func next(after numbers: ClosedRange<Int>) -> ClosedRange<Int> {
    (numbers.upperBound + 1)...(numbers.upperBound + numbers.count * 2)
  }

  /// How many games of one day between the same two teams are looked up at first.
  public static let meetings = 4

  /// The source games to read: those the candidates hold, and the batch's own.
  public func memberIds(of games: [Game], candidates: [Game]) -> [String] {
    var ids: [String] = []
    var seen: Set<String> = []
    for id in games.map(\.id) + candidates.flatMap({ $0.sources ?? [] }) where seen.insert(id).inserted {
      ids.append(id)
    }
    return ids
  }

  /// The stamped source games (in batch order) and the canonical games as merged now.
  ///
  /// - Parameters:
  ///   - candidates: the stored games under `candidateIds` (others are ignored).
  ///   - stored: the stored source games under `memberIds`, with when each last changed.
  ///   - time: when the batch's games were polled: a game whose live facts differ from its
  ///     stored record changed then.
  public func merge(_ games: [Game], candidates: [Game], stored: [String: StoredSource], at time: Date) -> (
    sources: [Game], canonical: [Game]
  ) {
    mergeAlone(games, candidates: candidates)
      ?? mergeMatching(games, candidates: candidates, stored: stored, at: time)
  }

  /// `merge` for any batch: each game matched among the candidates (`GameMatcher`), then each
  /// canonical game it changes merged from all its sources.
  func mergeMatching(_ games: [Game], candidates: [Game], stored: [String: StoredSource], at time: Date) -> (
    sources: [Game], canonical: [Game]
  ) {
    var entries: [String: CanonicalGameEntry] = [:]
    // The entries by sport and pair, so that a game is matched among its own pair's, never by
    // scanning every entry (a calendar of 20,000 games was quadratic: 165 s in one poll).
    var byPair: [PairKey: [String]] = [:]
    func index(_ entry: CanonicalGameEntry) {
      let key = PairKey(sport: entry.sport, pair: entry.pair)
      if byPair[key]?.contains(entry.id) != true { byPair[key, default: []].append(entry.id) }
    }
    var merged: [String: MergedGame] = [:]
    for candidate in candidates where candidate.isCanonical {
      guard let previous = MergedGame(record: candidate) else { continue }
      merged[candidate.id] = previous
      let entry = Self.entry(of: candidate, stored: stored, feeds: merger.feeds)
      entries[candidate.id] = entry
      index(entry)
    }
    var fresh: [String: SourceGame] = [:]
    var sources: [Game] = []
    var changed: [String] = []
    var changing: Set<String> = []
    // The canonical games a game left (its teams were corrected): each to the one it moved to.
    var left: [String: String] = [:]
    for var game in games {
      game.canonicalId = nil
      var source = sourceGame(game, liveChangedAt: time)
      if let held = stored[game.id], !CanonicalBoard.liveFactsDiffer(held.game, game) {
        source.liveChangedAt = held.changedAt ?? time
      }
      let pair = source.pair
      let related = (byPair[PairKey(sport: game.sport, pair: pair)] ?? []).compactMap { entries[$0] }
        .sorted { $0.id < $1.id }
      let id: String
      switch GameMatcher.place(source, among: related) {
      case .join(let joined):
        id = joined
        if entries[joined]?.members.contains(where: { $0.gameId == game.id }) == false {
          entries[joined]?.members.append(.init(game, feed: source.feed))
        }
      case .create(let entry):
        id = entry.id
        if let replaced = entries[id] {
          byPair[PairKey(sport: replaced.sport, pair: replaced.pair)]?.removeAll { $0 == id }
        }
        entries[id] = entry
        index(entry)
      }
      fresh[game.id] = source
      game.canonicalId = id
      sources.append(game)
      if changing.insert(id).inserted { changed.append(id) }
      // Placed elsewhere than before: the canonical game it was in loses it in the same write
      // (merged again from the sources it has left, or retired when it has none).
      if let former = stored[game.id]?.game.canonicalId, former != id, entries[former] != nil {
        entries[former]?.members.removeAll { $0.gameId == game.id }
        left[former] = id
        if changing.insert(former).inserted { changed.append(former) }
      }
    }
    var canonical: [Game] = []
    for id in changed {
      guard let entry = entries[id] else { continue }
      if entry.members.isEmpty {
        if let into = left[id], let record = candidates.first(where: { $0.id == id }) {
          canonical.append(Self.retired(record, into: into))
        }
        continue
      }
      let members = entry.members.compactMap { member -> SourceGame? in
        if let source = fresh[member.gameId] { return source }
        guard let held = stored[member.gameId] else { return nil }
        return sourceGame(held.game, liveChangedAt: held.changedAt ?? .distantPast)
      }
      guard let game = merger.merge(id: id, sources: members, previous: merged[id]) else { continue }
      canonical.append(game.record)
    }
    return (sources, canonical)
  }

  /// A canonical game whose last source moved to `into`: its last facts, no source, and where
  /// its source went (`Game.retiredInto`).
  static func retired(_ record: Game, into: String) -> Game {
    var game = record
    game.sources = []
    game.reversedSources = nil
    game.liveSource = nil
    game.conflict = nil
    game.retiredInto = into
    return game
  }

  /// A sport and two teams' identities: the entries a game can be matched among.
  struct PairKey: Hashable {
    var sport: Sport
    var pair: [String]
  }

  /// The usual live poll, merged without matching: a batch of one game whose canonical game
  /// holds it alone. What the general merge would give (it would join the game to that canonical
  /// game and merge it from the game alone), without building the entries, members and tables
  /// matching needs, and without the stored source game: a merge of one source does not ask
  /// when its live facts changed. Nil for any other batch, which takes the general merge. (A
  /// store that reads only the canonical game it placed the game in calls it alone, and reads
  /// more when it answers nil.)
  public func mergeAlone(_ games: [Game], candidates: [Game]) -> (sources: [Game], canonical: [Game])? {
    guard games.count == 1, var game = games.first else { return nil }
    // The one canonical game that holds it, holding nothing else, of its sport (and a merge's
    // record: it names its live source).
    var holder: Game?
    for candidate in candidates where candidate.isCanonical && candidate.sources?.contains(game.id) == true {
      guard holder == nil else { return nil }
      holder = candidate
    }
    guard let holder, holder.sources?.count == 1, holder.liveSource != nil, holder.sport == game.sport else {
      return nil
    }
    game.canonicalId = nil
    let source = sourceGame(game, liveChangedAt: .distantPast)
    // Still the same two teams (a corrected team would place the game elsewhere).
    guard source.pair == Self.pair(of: holder) else { return nil }
    game.canonicalId = holder.id
    return ([game], [merger.merge(id: holder.id, alone: source).record])
  }

  /// The identities of a stored canonical game's two teams, sorted (`CanonicalGameEntry.pair`).
  static func pair(of record: Game) -> [String] {
    func identity(_ ref: TeamRef) -> String {
      if let id = ref.id, id.hasPrefix(CanonicalTeam.idPrefix) { return id }
      return "source:" + (ref.id ?? ref.name)
    }
    return [identity(record.away.team), identity(record.home.team)].sorted()
  }

  /// A batch's source games on their way through the step: those equal to the record a store
  /// holds under their id (but for the stamp) are stamped at once; the others are `pending`,
  /// and take their stamps from the merge (`stamp`).
  public struct Stamping: Sendable {
    public private(set) var games: [Game]
    public private(set) var pending: [Game] = []
    /// The canonical id of each pending game the store has placed before (its stamp), with the
    /// same teams as then: only that canonical game is read for it, not every candidate. (A game
    /// whose teams changed is matched again among its new teams' candidates, and its canonical
    /// game then read as the one it may have left.)
    public private(set) var placed: [String: String] = [:]
    private var positions: [String: Int] = [:]

    /// - Parameter held: the record the store holds (or last wrote) under an id.
    public init(_ games: [Game], held: (String) -> Game?) {
      self.games = games
      for (index, game) in games.enumerated() {
        if let held = held(game.id), let id = held.canonicalId {
          var stamped = game
          stamped.canonicalId = id
          if stamped == held {
            self.games[index] = stamped
            continue
          }
          if game.away.team == held.away.team && game.home.team == held.home.team { placed[game.id] = id }
        }
        positions[game.id] = index
        pending.append(game)
      }
    }

    /// Puts the merge's stamped source games in their places.
    public mutating func stamp(_ sources: [Game]) {
      for game in sources {
        if let index = positions[game.id] { games[index] = game }
      }
    }
  }

  /// A step that knows no school: for a store opened to read only, which never merges (and
  /// should not pay for loading the seed).
  public static let readOnly: CanonicalStep = {
    do {
      return CanonicalStep(merger: GameMerger(feeds: .undeclared, registry: try TeamRegistry(teams: [])))
    } catch {
      fatalError("an empty team registry does not load: \(error)")
    }
  }()

  /// The canonical games of the games placed before, each once.
  public static func placedIds(_ placed: [String: String]) -> [String] {
    placed.count < 2 ? Array(placed.values) : Array(Set(placed.values)).sorted()
  }

  /// The canonical ids a source game's candidates have: for a game that can be matched, its
  /// sport and teams on its date and the day either side; else its own `game:` id.
  static func candidateIds(of source: SourceGame, numbers: ClosedRange<Int>) -> [String] {
    let game = source.game
    guard let date = game.date, game.sport != .unknown, let day = GameMatcher.day(date) else {
      return numbers.lowerBound == 1 ? [Game.canonicalPrefix + game.id] : []
    }
    return [day - 1, day, day + 1].flatMap { day in
      numbers.map { number in
        CanonicalGameEntry.id(sport: game.sport, date: GameMatcher.date(day), pair: source.pair, number: number)
      }
    }
  }

  /// The entry a stored canonical game stands for: matched on the date and number of its id and
  /// the identities of its teams, holding its sources.
  static func entry(of record: Game, stored: [String: StoredSource], feeds: SourceFeeds) -> CanonicalGameEntry {
    // `game:{date}:{sport}:{teams}[~g{number}]`, read with the standard library's own search
    // (Foundation's `range(of:options:)` bridges to NSString: it was a tenth of a merge).
    let rest = record.id.utf8.dropFirst(Game.canonicalPrefix.count)
    let dateText = rest.firstIndex(of: UInt8(ascii: ":")).map { String(record.id[rest.startIndex..<$0]) }
    let date = dateText.flatMap { GameMatcher.day($0) == nil ? nil : $0 }
    var number = 1
    if let tilde = record.id.utf8.lastIndex(of: UInt8(ascii: "~")),
      record.id.utf8[record.id.utf8.index(after: tilde)...].first == UInt8(ascii: "g"),
      let value = Int(record.id[record.id.utf8.index(tilde, offsetBy: 2)...])
    {
      number = value
    }
    let members = (record.sources ?? []).map { id in
      let game = stored[id]?.game
      return CanonicalGameEntry.Member(
        gameId: id, feed: feeds.feed(of: id), startTime: game?.startTime, gameNumber: game?.gameNumber)
    }
    return CanonicalGameEntry(
      id: record.id, sport: record.sport, date: date, pair: pair(of: record), number: number, members: members)
  }

}
