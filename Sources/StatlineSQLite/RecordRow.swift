import Foundation
import StatlineCore

/// A record as a row: its canonical JSON and the hash that decides whether it changed.
struct RecordRow {
  let kind: StoreChange.Kind
  let id: String
  let record: StoreRecord
  /// Compact JSON with sorted keys: the same record always gives the same bytes.
  let json: String
  /// FNV-1a (64-bit) of `json`.
  let hash: Int64

  init(kind: StoreChange.Kind, id: String, record: StoreRecord) throws(StatlineError) {
    self.kind = kind
    self.id = id
    self.record = record
    let data: Data
    do {
      switch record {
      case .game(let value): data = try Self.encoder.encode(value)
      case .team(let value): data = try Self.encoder.encode(value)
      case .boxScore(let value): data = try Self.encoder.encode(value)
      case .play(let value): data = try Self.encoder.encode(value)
      }
    } catch {
      throw StatlineError(.store, "cannot encode \(kind) \(id): \(error)")
    }
    json = String(decoding: data, as: UTF8.self)
    hash = Int64(bitPattern: ContentHash.fnv1a(data))
  }

  var gameId: String {
    if case .play(let play) = record { return play.gameId }
    return id
  }

  var sequence: Int {
    if case .play(let play) = record { return play.sequence }
    return 0
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  static func decode(_ kind: StoreChange.Kind, _ json: Data, path: String) throws(StatlineError) -> StoreRecord {
    let decoder = JSONDecoder()
    do {
      switch kind {
      case .game: return .game(try decoder.decode(Game.self, from: json))
      case .team: return .team(try decoder.decode(Team.self, from: json))
      case .boxScore: return .boxScore(try decoder.decode(BoxScore.self, from: json))
      case .play: return .play(try decoder.decode(Play.self, from: json))
      }
    } catch {
      throw StatlineError(.store, "a stored \(kind) record does not decode: \(error)", location: path)
    }
  }
}
