import Foundation
import StatlineCore
import Testing

@Suite struct PagePipelineTests {
  @Test func aGoodPageGivesAValidatedBatchNamingSourceParserAndURL() throws {
    let batch = try PagePipeline.run(page("hello", url: "https://x.test/1"), with: entry("p", source: "s"))
    #expect(batch.source == "s")
    #expect(batch.parser == "p")
    #expect(batch.url == "https://x.test/1")
    #expect(batch.games.map(\.id) == ["test:5"])
  }

  @Test(arguments: ["", "   \n\t  "])
  func anEmptyBodyIsAnError(_ body: String) {
    do {
      _ = try PagePipeline.run(page(body, url: "https://x.test/1"), with: entry("p", source: "s"))
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .emptyPage)
      #expect(error.source == "s")
      #expect(error.parser == "p")
      #expect(error.location == "https://x.test/1")
    }
  }

  @Test(arguments: [
    (200, "<html><head><title>&nbsp;</title><script>bm-verify</script></head></html>", "bm-verify"),
    (200, "<html><body><div>Pardon Our Interruption</div></body></html>", "Pardon Our Interruption"),
    (403, "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>Reference #18.1</BODY></HTML>", "Access Denied"),
    (403, "<html>forbidden</html>", "HTTP 403"),
    (429, "<html>slow down</html>", "rate limited"),
  ])
  func challengesAndWallsAreBlocked(status: Int, body: String, reason: String) {
    do {
      _ = try PagePipeline.run(page(body, url: "https://x.test/1", status: status), with: entry("p"))
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .blocked)
      #expect(error.reason.contains(reason))
    }
  }

  @Test func aRefusalHeaderIsBlocked() {
    let refused = page("<html>ok</html>", url: "https://x.test/1", headers: ["X-SB-Rejected": "1"])
    #expect(throws: StatlineError.self) { try PagePipeline.run(refused, with: entry("p")) }
    #expect(BlockDetector.check(refused)?.kind == .blocked)
  }

  @Test func everyMarkerIsFoundInAnyCaseAnywhereInTheFirst64KiB() {
    let filler = String(repeating: "<tr><td>pause</td><td>challenge</td></tr>", count: 1500)
    for (marker, reason) in BlockDetector.challengeMarkers {
      for variant in [marker, marker.uppercased()] {
        let found = BlockDetector.check(page("<html>\(filler.prefix(60_000))\(variant)</html>"))
        #expect(found?.kind == .blocked && found?.reason.contains(reason) == true, "\(variant)")
      }
    }
    #expect(BlockDetector.check(page("<html>\(filler)</html>")) == nil, "near misses are content")
    #expect(BlockDetector.check(page(String(repeating: " ", count: 70_000) + "bm-verify")) == nil, "beyond 64 KiB")
  }

  /// A challenge is an HTML page: a JSON answer that quotes a marker's words is content, and
  /// its 64 KiB are not scanned.
  @Test func aJSONAnswerIsNeverAWall() {
    for body in [
      #"{"story":"Cloudflare's cf-chl- pages"}"#, "\u{FEFF} \n [\"bm-verify\"]",
      "\t{\"x\":\"<title>Access Denied</title>\"}",
    ] {
      #expect(BlockDetector.check(page(body)) == nil, "\(body)")
    }
    #expect(BlockDetector.check(page(" <p>{bm-verify}</p>"))?.kind == .blocked, "HTML that holds braces is scanned")
  }

  @Test func markersAreFoundAtEveryOffsetAndTheFirstOneNamesTheWall() {
    for (marker, reason) in BlockDetector.challengeMarkers {
      for offset in 0..<40 {
        let found = BlockDetector.check(page(String(repeating: "c", count: offset) + marker.uppercased() + "--"))
        #expect(found?.reason.contains(reason) == true, "\(marker) at \(offset)")
      }
      let atTheLimit = String(repeating: " ", count: (64 << 10) - marker.utf8.count) + marker
      #expect(BlockDetector.check(page(atTheLimit))?.kind == .blocked, "\(marker) ending at 64 KiB")
      #expect(BlockDetector.check(page(String(atTheLimit.dropLast()) + " " + marker)) == nil, "\(marker) past 64 KiB")
    }
    let both = page("<p>bm-verify</p><title>Access Denied</title>")
    #expect(BlockDetector.check(both)?.reason.contains("bm-verify") == true)
  }

  @Test func aScannedPageKeepsItsVerdictUntilItsBodyChanges() throws {
    var wall = page("<html><script>bm-verify</script></html>")
    let unscanned = wall
    BlockDetector.scan(&wall)
    #expect(wall == unscanned, "the scan is no part of the page's value")
    #expect(BlockDetector.check(wall)?.kind == .blocked)
    #expect(throws: StatlineError.self) { try PagePipeline.run(wall, with: entry("p")) }
    // The same bytes read again from a page whose body was replaced: scanned anew.
    wall.body = Data("<html>content</html>".utf8)
    #expect(BlockDetector.check(wall) == nil)
    BlockDetector.scan(&wall)
    wall.body.append(contentsOf: Array("<title>Access Denied</title>".utf8))
    #expect(BlockDetector.check(wall)?.reason.contains("Access Denied") == true, "a body changed in place")
    var content = page("<html>content</html>")
    BlockDetector.scan(&content)
    content.status = 403
    #expect(BlockDetector.check(content)?.kind == .blocked, "the status is read every time")
  }

  @Test func anErrorStatusIsNotParsed() {
    #expect(BlockDetector.check(page("<html>oops</html>", status: 500))?.kind == .wrongPage)
    #expect(BlockDetector.check(page("<html>fine</html>", status: 200)) == nil)
  }

  @Test func foreignErrorsBecomeLocatedStatlineErrors() {
    struct Boom: Error {}
    do {
      _ = try PagePipeline.run(page("x", url: "https://x.test/1"), with: entry("p", source: "s", failure: Boom()))
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .wrongPage)
      #expect(error.description.contains("[source s, parser p, https://x.test/1]"))
    }
  }

  @Test func errorDescriptionSaysWhatWhereAndWhatToDo() {
    let error = StatlineError(
      .validation, "scores disagree", source: "ncaa", parser: "box", location: "https://x/1", context: "row 3",
      hint: "fix the parser")
    #expect(
      error.description
        == "validation failed: scores disagree (at row 3) [source ncaa, parser box, https://x/1]. fix the parser")
  }
}
