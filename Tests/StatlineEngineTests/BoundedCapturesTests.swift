import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// A failed page is captured up to the job's bound, its start kept and marked truncated in its
/// error and a header; a page within the bound is kept whole.
@Suite struct BoundedCapturesTests {
  @Test func aLargePageIsCapturedTruncatedAndSaysSo() async throws {
    let log = MemoryCaptures()
    let captures = BoundedCaptures(log, maxPageBytes: 1_024)
    let big = Page(url: "https://stats.test/1", body: Data(repeating: UInt8(ascii: "x"), count: 15_000_000))
    let error = StatlineError(.wrongPage, "no table with a Date header")
    _ = try await captures.capture(big, error: error, at: Date())
    let small = Page(url: "https://stats.test/2", body: Data("<html>short</html>".utf8))
    _ = try await captures.capture(small, error: error, at: Date())
    let saved = await log.saved
    #expect(saved.count == 2)
    #expect(saved[0].page.body == big.body.prefix(1_024))
    #expect(saved[0].page.headers[BoundedCaptures.truncatedHeader] == "15000000")
    #expect(saved[0].error.reason.hasSuffix("[captured truncated: the first 1024 of 15000000 bytes]"))
    #expect(saved[1].page == small && saved[1].error == error, "a page within the bound is kept whole")
  }
}
