import Foundation

/// A team's logo as Statline serves it (architecture.md#team-logos): the bytes downloaded from
/// the URL a page showed for the team, their type and their hash.
public struct TeamLogo: Sendable, Equatable {
  /// The canonical team (`team:457`).
  public var teamId: String
  /// `image/png`, `image/jpeg`, `image/gif`, `image/webp` or `image/svg+xml`: what the bytes are,
  /// read from the bytes themselves.
  public var contentType: String
  public var bytes: Data
  /// The bytes' SHA-256, lower-case hex: the served ETag.
  public var sha256: String
  /// Where they were downloaded from, and when.
  public var sourceURL: String
  public var fetchedAt: Date

  public init(teamId: String, contentType: String, bytes: Data, sha256: String, sourceURL: String, fetchedAt: Date) {
    self.teamId = teamId
    self.contentType = contentType
    self.bytes = bytes
    self.sha256 = sha256
    self.sourceURL = sourceURL
    self.fetchedAt = fetchedAt
  }
}

/// What the logo keeper knows of one team's logo, without its bytes: the URL it follows, the
/// validators of the last download (for a conditional GET), and when to try next.
public struct LogoState: Codable, Sendable, Equatable {
  public var teamId: String
  /// The URL the last attempt asked (a page may start showing another: it is then asked at once).
  public var sourceURL: String
  /// The stored image's hash (nil: none stored yet).
  public var sha256: String?
  /// The stored image's type.
  public var contentType: String?
  /// The server's validators for the stored image, sent back as `If-None-Match` /
  /// `If-Modified-Since`.
  public var etag: String?
  public var lastModified: String?
  /// When the stored image was downloaded (nil: none yet), and from where (the URL may have
  /// moved on since, to one not downloaded yet).
  public var fetchedAt: Date?
  public var fetchedFrom: String?
  /// When the URL was last asked, whatever came of it.
  public var checkedAt: Date
  /// Attempts that failed in a row since the last success.
  public var failures: Int
  /// Why the last attempt failed (nil: it did not).
  public var lastError: String?
  /// When the keeper asks again.
  public var nextAttemptAt: Date

  public init(
    teamId: String, sourceURL: String, sha256: String? = nil, contentType: String? = nil, etag: String? = nil,
    lastModified: String? = nil, fetchedAt: Date? = nil, fetchedFrom: String? = nil, checkedAt: Date, failures: Int = 0,
    lastError: String? = nil,
    nextAttemptAt: Date
  ) {
    self.teamId = teamId
    self.sourceURL = sourceURL
    self.sha256 = sha256
    self.contentType = contentType
    self.etag = etag
    self.lastModified = lastModified
    self.fetchedAt = fetchedAt
    self.fetchedFrom = fetchedFrom
    self.checkedAt = checkedAt
    self.failures = failures
    self.lastError = lastError
    self.nextAttemptAt = nextAttemptAt
  }
}

/// Where logos are kept (architecture.md#team-logos): one row per canonical team, its state and,
/// once one was downloaded, its image. The SQLite, PostgreSQL and memory stores all keep them
/// (`LogoStoreContract`).
public protocol LogoStore: Sendable {
  /// Every team's logo state, by team id.
  func logoStates() async throws -> [LogoState]
  /// Records an attempt: `image` (with `state.sha256` and `state.contentType` describing it)
  /// replaces the stored image; nil keeps the image stored before (a 304, or a failure: a logo
  /// once downloaded is served until another replaces it).
  func saveLogo(_ state: LogoState, image: Data?) async throws
}

extension LogoState {
  /// The stored logo this state describes, with its bytes.
  public func logo(bytes: Data) -> TeamLogo? {
    guard let sha256, let contentType, let fetchedAt else { return nil }
    return TeamLogo(
      teamId: teamId, contentType: contentType, bytes: bytes, sha256: sha256, sourceURL: fetchedFrom ?? sourceURL,
      fetchedAt: fetchedAt)
  }
}

extension LogoState {
  /// The state as the stores keep it: JSON with sorted keys, times as seconds (exact).
  public func storedJSON() throws(StatlineError) -> String {
    do {
      return String(decoding: try Self.encoder.encode(self), as: UTF8.self)
    } catch {
      throw StatlineError(.store, "the logo state of \(teamId) cannot be encoded: \(error)")
    }
  }

  /// A state the stores kept (`storedJSON`).
  public init(storedJSON text: String, location: String?) throws(StatlineError) {
    do {
      self = try JSONDecoder().decode(Self.self, from: Data(text.utf8))
    } catch {
      throw StatlineError(
        .store, "a stored logo state is not readable: \(error)", location: location,
        hint: "delete the team's row from team_logos: the keeper downloads the logo again")
    }
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()
}
