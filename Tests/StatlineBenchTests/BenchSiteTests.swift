import Foundation
import StatlineApp
import StatlineCore
import StatlineLoopback
import StatlineTesting
import Testing

@testable import StatlineApp
@testable import StatlineBench

/// `bench cycle --page`: the real StatCrew XML served as a live game whose clock moves.
@Suite(.enabled(if: RealPages.available, "set STATLINE_REAL_FIXTURES to read the real pages"))
struct BenchSiteTests {
  static let realGame = "statcrew/lcgame-mlax-iona-at-unc-2026-02-15-final.xml"

  /// `bench cycle --mix`: every kind's real page, at its path on the site, in both renderings,
  /// is read whole by its parser, and the site serves each target its kind's page.
  @Test func everyPageOfTheMixIsReadWholeAtItsPath() throws {
    let registry = try BuiltinPlugins.registry()
    let site = try BenchSite(
      targets: BenchMix.kinds.count, mode: .changed, cadence: 30, mixFolder: RealPages.folder!.path)
    for index in BenchMix.kinds.indices {
      let (kind, path) = BenchMix.target(index)
      for elapsed in [0.0, 30.0] {
        let request = LoopbackServer.Request(method: "GET", uri: path, headers: [:])
        guard case .respond(let status, let headers, let body) = site.route(request, elapsed: elapsed) else {
          Issue.record("\(path): no answer")
          continue
        }
        #expect(status == 200 && headers["ETag"] != nil, "\(path)")
        let page = Page(url: "http://127.0.0.1:9" + path, headers: headers, body: Data(body.utf8))
        let entry = try #require(registry.parser(id: kind.parser))
        let batch = try PagePipeline.run(page, with: entry)
        #expect(!batch.games.isEmpty, "\(kind.page)")
        #expect(
          !batch.warnings.contains { $0.hasPrefix(BatchValidator.refusedPrefix) }, "\(kind.page): \(batch.warnings)")
      }
    }
  }

  /// A StatCrew copy whose URL names its game is that game a day later per copy, with an ETag of
  /// its own, so the copies are distinct games to the canonical merge (the same two teams on the
  /// same day would make one game of them all); a file that names its event (`sbid`) stays one
  /// game, and the other kinds are served as saved.
  @Test func copiesOfAStatCrewGameAreDistinctGamesADayApart() throws {
    let registry = try BuiltinPlugins.registry()
    let kinds = BenchMix.kinds.count
    let site = try BenchSite(targets: 3 * kinds, mode: .changed, cadence: 30, mixFolder: RealPages.folder!.path)
    var shifted = 0
    for kindIndex in BenchMix.kinds.indices {
      var games: [Game] = []
      var tags: Set<String> = []
      for copy in 0..<3 {
        let (kind, path) = BenchMix.target(kindIndex + copy * kinds)
        let request = LoopbackServer.Request(method: "GET", uri: path, headers: [:])
        guard case .respond(_, let headers, let body) = site.route(request, elapsed: 0) else {
          Issue.record("\(path): no answer")
          continue
        }
        tags.insert(headers["ETag"] ?? "")
        let page = Page(url: "http://127.0.0.1:9" + path, headers: headers, body: Data(body.utf8))
        let entry = try #require(registry.parser(id: kind.parser))
        games.append(try #require(try PagePipeline.run(page, with: entry).games.first))
      }
      guard games.count == 3 else { continue }
      if site.dated[kindIndex][0] != nil {
        shifted += 1
        let days = try games.map { game in
          let parts = try #require(game.date).split(separator: "-").compactMap { Int($0) }
          return CivilDate.days(year: parts[0], month: parts[1], day: parts[2])
        }
        #expect(days == [days[0], days[0] + 1, days[0] + 2], "\(BenchMix.kinds[kindIndex].page)")
        #expect(Set(games.map(\.id)).count == 3 && tags.count == 3, "\(BenchMix.kinds[kindIndex].page)")
        #expect(Set(games.map(\.away.team.name)).count == 1 && Set(games.map(\.home.team.name)).count == 1)
      } else {
        #expect(Set(games.map(\.date)).count == 1, "\(BenchMix.kinds[kindIndex].page)")
      }
    }
    // Five of the six StatCrew files name their game by URL; the basketball file has an sbid.
    #expect(shifted == 5)
  }

  @Test func theRealGameBecomesLiveWithItsClockMovingAndNothingElse() throws {
    let data = try RealPages.data(Self.realGame)
    let renderings = try BenchSite.liveRenderings(of: data)
    #expect(renderings.count == 2 && renderings[0] != renderings[1])
    let original = String(decoding: data, as: UTF8.self)
    for (rendering, clock) in zip(renderings, ["05:00", "04:30"]) {
      #expect(rendering.contains(#"<status period="4" clock="\#(clock)" complete="N">"#))
      #expect(
        rendering.replacingOccurrences(of: #"<status[^>]*>"#, with: "", options: .regularExpression)
          == original.replacingOccurrences(of: #"<status[^>]*>"#, with: "", options: .regularExpression))
    }
    let registry = try BuiltinPlugins.registry()
    for (rendering, clock) in zip(renderings, ["05:00", "04:30"]) {
      let page = Page(url: "http://127.0.0.1:9/game/700042.xml", body: Data(rendering.utf8))
      let batch = try PagePipeline.run(page, with: try registry.select(for: page, parser: nil))
      let game = try #require(batch.games.first)
      #expect(game.id == "statbroadcast:700042" && game.status == .live && game.clock == clock)
      #expect(game.away.score == 7 && game.home.score == 23 && batch.plays.count > 100)
    }
  }

  @Test func everyTargetAnswersItsRenderingAndItsETag() throws {
    let site = try BenchSite(targets: 3, mode: .changed, cadence: 30, page: try RealPages.data(Self.realGame))
    #expect(site.pages.count == 3 && site.etags[2] == site.etags[0])
    #expect(site.route(.init(method: "GET", uri: BenchSite.path(2), headers: [:]), elapsed: 31).status == 200)
    #expect(site.route(.init(method: "GET", uri: BenchSite.path(3), headers: [:]), elapsed: 1).status == 404)
    let tag = site.etags[0][1]
    #expect(
      site.route(.init(method: "GET", uri: BenchSite.path(1), headers: ["if-none-match": tag]), elapsed: 45).status
        == 304)
    #expect(
      site.route(.init(method: "GET", uri: BenchSite.path(1), headers: ["if-none-match": tag]), elapsed: 61).status
        == 200)
  }

  @Test func aPageThatIsNotAStatCrewGameIsRefusedWithWhatToPass() throws {
    for text in ["<html><body><status/></body></html>", "see <lcgame> and <status clock=\"1\">", "<lcgame></lcgame>"] {
      #expect {
        _ = try BenchSite(targets: 1, mode: .changed, cadence: 30, page: Data(text.utf8))
      } throws: { error in
        (error as? StatlineError)?.hint?.contains("--page takes a game XML") == true
      }
    }
    #expect(throws: StatlineError.self) {
      _ = try BenchSite(targets: 1, mode: .scoring, cadence: 30, page: try RealPages.data(Self.realGame))
    }
    let missing = #expect(throws: StatlineError.self) {
      _ = try BenchSite(targets: 1, mode: .changed, cadence: 30, pageFile: "/nonexistent/game.xml")
    }
    #expect(missing?.kind == .io && missing?.location == "/nonexistent/game.xml")
  }
}
