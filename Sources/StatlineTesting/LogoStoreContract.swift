import Foundation
import StatlineCore
import Testing

/// What every store does with team logos (architecture.md#team-logos): a state is read back
/// whole; an image replaces the one before; an attempt without an image (a 304, a failure)
/// keeps the image stored; a team without an image has no logo.
public enum LogoStoreContract {
  public static func check(
    _ make: () async throws -> any LogoStore & StoreReader, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let store = try await make()
    let start = Date(timeIntervalSince1970: 1_796_000_000.25)
    #expect(try await store.logoStates().isEmpty, sourceLocation: sourceLocation)
    #expect(try await store.teamLogo(teamId: "team:457") == nil, sourceLocation: sourceLocation)

    // A failed first attempt: a state, no logo.
    let failed = LogoState(
      teamId: "team:457", sourceURL: "https://logos.example/457.png", checkedAt: start, failures: 1,
      lastError: "HTTP 503", nextAttemptAt: start.addingTimeInterval(3600))
    try await store.saveLogo(failed, image: nil)
    #expect(try await store.logoStates() == [failed], "read back whole", sourceLocation: sourceLocation)
    #expect(try await store.teamLogo(teamId: "team:457") == nil, sourceLocation: sourceLocation)

    // Downloaded: the image and its state.
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01])
    var fetched = failed
    fetched.sha256 = "aa11"
    fetched.contentType = "image/png"
    fetched.etag = "\"v1\""
    fetched.fetchedAt = start.addingTimeInterval(3600.5)
    fetched.fetchedFrom = fetched.sourceURL
    fetched.checkedAt = start.addingTimeInterval(3600.5)
    fetched.failures = 0
    fetched.lastError = nil
    try await store.saveLogo(fetched, image: png)
    let logo = try await store.teamLogo(teamId: "team:457")
    #expect(
      logo?.bytes == png && logo?.sha256 == "aa11" && logo?.contentType == "image/png", sourceLocation: sourceLocation)
    #expect(
      logo?.fetchedAt == fetched.fetchedAt && logo?.sourceURL == fetched.sourceURL, sourceLocation: sourceLocation)

    // The page moves to another URL and its download fails: the old image stays served.
    var moved = fetched
    moved.sourceURL = "https://logos.example/457-new.png"
    moved.failures = 1
    moved.lastError = "HTTP 404"
    try await store.saveLogo(moved, image: nil)
    #expect(try await store.teamLogo(teamId: "team:457")?.bytes == png, sourceLocation: sourceLocation)
    #expect(
      try await store.teamLogo(teamId: "team:457")?.sourceURL == "https://logos.example/457.png",
      "the image says where it came from", sourceLocation: sourceLocation)

    // A new image replaces it; another team's is its own.
    let gif = Data("GIF89a-new".utf8)
    var replaced = moved
    replaced.sha256 = "bb22"
    replaced.contentType = "image/gif"
    replaced.fetchedFrom = moved.sourceURL
    replaced.failures = 0
    replaced.lastError = nil
    try await store.saveLogo(replaced, image: gif)
    let other = LogoState(
      teamId: "team:193", sourceURL: "https://logos.example/193.svg", sha256: "cc33", contentType: "image/svg+xml",
      fetchedAt: start, fetchedFrom: "https://logos.example/193.svg", checkedAt: start, nextAttemptAt: start)
    try await store.saveLogo(other, image: Data("<svg/>".utf8))
    #expect(try await store.teamLogo(teamId: "team:457")?.bytes == gif, sourceLocation: sourceLocation)
    #expect(
      try await store.teamLogo(teamId: "team:193")?.contentType == "image/svg+xml", sourceLocation: sourceLocation)
    #expect(
      try await store.logoStates().map(\.teamId) == ["team:193", "team:457"], "in team order",
      sourceLocation: sourceLocation)
  }
}
