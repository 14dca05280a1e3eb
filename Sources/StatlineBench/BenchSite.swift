import Foundation
import StatlineCanonical
import StatlineCore
import StatlineDemo
import StatlineLoopback

/// The site the cycle benchmark polls: `targets` live lacrosse games as StatCrew XML on
/// loopback. In `changed` mode every game's page changes once per cadence; in `notModified`
/// mode it never changes and answers 304 to its ETag; in `identical` mode it never changes and
/// has no validators, so only the content hash can tell.
public struct BenchSite: Sendable {
  public enum Mode: String, Sendable, CaseIterable {
    case changed
    /// Every cadence the next of four renderings at the end of periods 1–4 (a goal or more, a
    /// new period), then back to the first (a correction): every poll derives events.
    case scoring
    case notModified = "not-modified"
    case identical
  }

  let mode: Mode
  let cadence: Double
  /// After this many seconds the pages stop changing (a day that ends: a cluster's final state
  /// can then be compared with one worker's).
  public var freezeAfter: Double?
  /// Two renderings per game (the clock moved), alternating each cadence in `changed` mode.
  let pages: [[String]]
  let etags: [[String]]
  /// `--mix`: the site serves `BenchMix`'s pages (found by the target number in their path).
  var mixed = false
  /// `--mix`: each kind's renderings cut around their date, for the kinds whose copies are
  /// distinct games (`BenchMix.DatedPage`); copy `n` is served `n` days on.
  var dated: [[BenchMix.DatedPage?]] = []

  /// Every target serves the same saved StatCrew game XML (`scripts/peers` uses the real one),
  /// made live: two renderings whose `<status>` differ in the clock. The game's id comes from
  /// each target's URL, so the copies are distinct games.
  public init(targets: Int, mode: Mode, cadence: Double, page: Data) throws(StatlineError) {
    guard mode != .scoring else {
      throw StatlineError(
        .configuration, "--page takes the changed, not-modified or identical mode, not scoring",
        hint: "scoring pages are written by the benchmark itself; leave out --page")
    }
    let variants = try Self.liveRenderings(of: page)
    self.mode = mode
    self.cadence = cadence
    pages = Array(repeating: variants, count: targets)
    let tags = variants.map(LoopbackServer.etag)
    etags = Array(repeating: tags, count: targets)
  }

  /// `--page FILE`: the site on the saved game XML at `path`.
  public init(targets: Int, mode: Mode, cadence: Double, pageFile path: String) throws(StatlineError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StatlineError(.io, "cannot read the page", location: path)
    }
    try self.init(targets: targets, mode: mode, cadence: cadence, page: data)
  }

  /// The page with its `<status>` rewritten to a live game (`complete="N"`) at 05:00, and at
  /// 04:30: the one change a live game's page has from one poll to the next.
  static func liveRenderings(of page: Data) throws(StatlineError) -> [String] {
    let text = String(decoding: page, as: UTF8.self)
    guard text.range(of: #"^\s*(<\?xml[^>]*\?>\s*)?<lcgame\b"#, options: .regularExpression) != nil,
      let tag = text.range(of: #"<status\b[^>]*>"#, options: .regularExpression)
    else {
      throw StatlineError(
        .configuration, "the page is not a StatCrew lacrosse game XML with a <status> element",
        hint: "--page takes a game XML like ../shared/fixtures/real/statcrew/*.xml")
    }
    return ["05:00", "04:30"].map { clock in
      var status = String(text[tag])
      for (name, value) in [("clock", clock), ("complete", "N")] {
        if let attribute = status.range(of: #"\b\#(name)="[^"]*""#, options: .regularExpression) {
          status.replaceSubrange(attribute, with: "\(name)=\"\(value)\"")
        } else {
          status.insert(contentsOf: " \(name)=\"\(value)\"", at: status.index(status.startIndex, offsetBy: 7))
        }
      }
      return text.replacingCharacters(in: tag, with: status)
    }
  }

  public init(targets: Int, mode: Mode, cadence: Double) {
    self.mode = mode
    self.cadence = cadence
    let template = DemoGameDay().games[0]
    // Each game between two schools of its own, as on a real day (the same two every time would
    // make one long doubleheader of the whole site): the registry's schools two by two, a day
    // later each time they run out.
    let schools = CanonicalStep.standard.merger.registry.teams
    var pages: [[String]] = []
    for index in 0..<targets {
      var game = template
      game.eventId = String(700_000 + index)
      Self.seat(&game, schools, index)
      let date = "3/\(7 + 2 * index / schools.count)/2026"
      if mode == .scoring {
        pages.append((1...4).map { StatCrewWriter.xml(game, at: .inPeriod(period: $0, remaining: 1), date: date) })
      } else {
        pages.append([
          StatCrewWriter.xml(game, at: .inPeriod(period: 2, remaining: 600), date: date),
          StatCrewWriter.xml(game, at: .inPeriod(period: 2, remaining: 570), date: date),
        ])
      }
    }
    self.pages = pages
    etags = pages.map { $0.map(LoopbackServer.etag) }
  }

  /// `--mix FOLDER`: the real pages of every kind, taken in turn by the targets (`BenchMix`),
  /// changing their bytes every cadence (`changed` mode) or never (the others).
  public init(targets: Int, mode: Mode, cadence: Double, mixFolder folder: String) throws(StatlineError) {
    guard mode != .scoring else {
      throw StatlineError(.configuration, "--mix takes the changed, not-modified or identical mode, not scoring")
    }
    let renderings = try BenchMix.renderings(folder: folder)
    let tags = renderings.map { $0.map(LoopbackServer.etag) }
    self.mode = mode
    self.cadence = cadence
    let kinds = BenchMix.kinds.count
    pages = (0..<targets).map { renderings[$0 % kinds] }
    etags = (0..<targets).map { tags[$0 % kinds] }
    dated = zip(BenchMix.kinds, renderings).map { kind, pages in
      kind.parser == "statbroadcast-game-xml" ? pages.map(BenchMix.DatedPage.init) : pages.map { _ in nil }
    }
    mixed = true
  }

  /// Game `index` between two schools of the registry of its own (`schools`, two by two), as
  /// StatCrew (the id, the name as an XML attribute) and ncaa.com (name, slug, team id) name them.
  static func seat(_ game: inout DemoGame, _ schools: [CanonicalTeam], _ index: Int) {
    for (side, offset) in [(\DemoGame.away, 0), (\DemoGame.home, 1)] {
      let school = Self.school(schools, index, offset)
      game[keyPath: side].id = "S\(school.orgId)"
      // As an XML attribute (`Texas A&M`).
      game[keyPath: side].name = school.name.replacingOccurrences(of: "&", with: "&amp;")
        .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
      game[keyPath: side].ncaaName = school.name
      game[keyPath: side].seoname = school.name.lowercased().filter { $0.isLetter || $0 == " " }
        .replacingOccurrences(of: " ", with: "-")
      game[keyPath: side].comTeamId = school.orgId
    }
  }

  /// The canonical ids of the two schools of each of `targets` games, as `seat` places them.
  public static func teams(targets: Int) -> [(away: String, home: String)] {
    let schools = CanonicalStep.standard.merger.registry.teams
    return (0..<targets).map { (school(schools, $0, 0).id, school(schools, $0, 1).id) }
  }

  /// Game `index`'s away (`offset` 0) or home (1) school.
  static func school(_ schools: [CanonicalTeam], _ index: Int, _ offset: Int) -> CanonicalTeam {
    schools[(2 * index + offset) % schools.count]
  }

  public static func path(_ index: Int) -> String { "/game/\(700_000 + index).xml" }

  public func route(_ request: LoopbackServer.Request, elapsed: Double) -> LoopbackServer.Behavior {
    if request.uri == "/robots.txt" { return .ok("User-agent: *\nAllow: /\n") }
    let index: Int
    // A mix page's number is its `n=` (the request may carry more: a persisted query's hash).
    if mixed, let number = BenchMix.number(in: request.uri),
      (700_000..<700_000 + pages.count).contains(number)
    {
      index = number - 700_000
    } else {
      guard request.uri.hasPrefix("/game/"), let id = Int(request.uri.dropFirst(6).dropLast(4)),
        (700_000..<700_000 + pages.count).contains(id)
      else { return .respond(status: 404) }
      index = id - 700_000
    }
    let time = min(elapsed, freezeAfter ?? elapsed)
    let variant = mode == .changed || mode == .scoring ? Int(time / cadence) % pages[index].count : 0
    var page = pages[index][variant]
    var etag = etags[index][variant]
    let copy = mixed ? index / dated.count : 0
    if copy > 0, let dated = dated[index % dated.count][variant] {
      page = dated.text(copy: copy)
      etag = etag.dropLast() + "-\(copy)\""
    }
    switch mode {
    case .identical: return .ok(page)
    case .changed, .scoring, .notModified:
      if request.headers["if-none-match"] == etag { return .respond(status: 304, headers: ["ETag": etag]) }
      return .ok(page, headers: ["ETag": etag, "Content-Type": contentType(index)])
    }
  }

  private func contentType(_ index: Int) -> String {
    guard mixed else { return "text/xml" }
    let page = BenchMix.target(index).kind.page
    return page.hasSuffix(".json")
      ? "application/json" : page.hasSuffix(".html") ? "text/html; charset=utf-8" : "text/xml"
  }
}
