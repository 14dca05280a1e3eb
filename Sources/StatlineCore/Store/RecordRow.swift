import Foundation

/// A record as a row: its canonical JSON and the hash that decides whether it changed (what
/// every store writes).
public struct RecordRow: Sendable {
  public let kind: StoreChange.Kind
  public let id: String
  public let record: StoreRecord
  /// Compact JSON with sorted keys: the same record always gives the same bytes.
  public let json: String
  /// FNV-1a (64-bit) of `json`.
  public let hash: Int64

  public init(kind: StoreChange.Kind, id: String, record: StoreRecord) throws(StatlineError) {
    self.kind = kind
    self.id = id
    self.record = record
    let data: Data
    do {
      switch record {
      case .game(let value): data = try Self.json.encode(value)
      case .team(let value): data = try Self.json.encode(value)
      case .boxScore(let value): data = try Self.json.encode(value)
      case .play(let value): data = try Self.json.encode(value)
      case .ranking(let value): data = try Self.json.encode(value)
      }
    } catch {
      throw StatlineError(.store, "cannot encode \(kind) \(id): \(error)")
    }
    json = String(decoding: data, as: UTF8.self)
    hash = Int64(bitPattern: ContentHash.fnv1a(data))
  }

  /// A row whose JSON and hash were made before (a planned row, `PlannedRow`).
  public init(kind: StoreChange.Kind, id: String, record: StoreRecord, json: String, hash: Int64) {
    self.kind = kind
    self.id = id
    self.record = record
    self.json = json
    self.hash = hash
  }

  public var gameId: String { record.gameId(orId: id) }
  public var sequence: Int { record.sequence }

  /// What `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, faster.
  static let json = SortedJSON(escapesSlashes: false)

  /// Decodes a stored record; `path` names the store in the error.
  public static func decode(_ kind: StoreChange.Kind, _ json: Data, path: String) throws(StatlineError) -> StoreRecord {
    let decoder = JSONDecoder()
    do {
      switch kind {
      case .game: return .game(try decoder.decode(Game.self, from: json))
      case .team: return .team(try decoder.decode(Team.self, from: json))
      case .boxScore: return .boxScore(try decoder.decode(BoxScore.self, from: json))
      case .play: return .play(try decoder.decode(Play.self, from: json))
      case .ranking: return .ranking(try decoder.decode(Ranking.self, from: json))
      }
    } catch {
      throw StatlineError(.store, "a stored \(kind) record does not decode: \(error)", location: path)
    }
  }
}

extension StoreRecord {
  /// The game a play belongs to; `id` for other kinds (a row's key column).
  public func gameId(orId id: String) -> String {
    if case .play(let play) = self { return play.gameId }
    return id
  }

  /// A play's sequence; 0 for other kinds.
  public var sequence: Int {
    if case .play(let play) = self { return play.sequence }
    return 0
  }
}

extension JSONEncoder {
  /// Sorted keys: the same value always gives the same bytes.
  public static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }
}

extension TargetState {
  /// The state as a store keeps it: JSON without the page validators, which are stored beside
  /// it (they change on every poll of a live page; the rest far less often).
  public func storedJSON() throws(StatlineError) -> String {
    var bare = self
    bare.etag = nil
    bare.lastModified = nil
    bare.bodyHash = nil
    // What `JSONEncoder.sorted` writes, faster: a poll stores its target's state every time.
    guard let json = try? SortedJSON(escapesSlashes: true).encode(bare) else {
      throw StatlineError(.store, "the state of target \(id) cannot be encoded")
    }
    return String(decoding: json, as: UTF8.self)
  }
}
