import Foundation
import StatlineCore

/// Where a source game belongs (architecture.md#canonical-games): two source games are one game when their sport,
/// their date (a day either side, for feeds that date by UTC, when both give start times within
/// two hours) and their two teams match, home and away in either order. A feed never reports one game twice, so a canonical game that already
/// holds a game of the same feed is another game (a doubleheader), and so is one whose start time
/// is more than two hours away from this one's, and so is one holding a game its page numbers
/// otherwise (game 1 of a doubleheader never joins game 2). Among several, the same date wins,
/// then the same game number, then the nearest start, then the first game. A numbered game that
/// creates a canonical game takes its number when it is free (`~g2` is game 2).
public enum GameMatcher {
  public enum Placement: Sendable, Equatable {
    case join(String)
    case create(CanonicalGameEntry)
  }

  /// Start times further apart than this are two games.
  public static let sameGameWindow: TimeInterval = 2 * 3600

  /// - Parameter candidates: the canonical games of the same sport and teams within a day of the
  ///   game's date (more do no harm: they are filtered here).
  public static func place(_ source: SourceGame, among candidates: [CanonicalGameEntry]) -> Placement {
    let game = source.game
    if let joined = candidates.first(where: { $0.members.contains { $0.gameId == game.id } }) {
      return .join(joined.id)
    }
    let member = CanonicalGameEntry.Member(game, feed: source.feed)
    guard let date = game.date, game.sport != .unknown, let day = Self.day(date) else {
      return .create(
        CanonicalGameEntry(
          id: "game:\(game.id)", sport: game.sport, date: game.date, pair: source.pair, number: 1, members: [member]))
    }
    let related = candidates.filter { entry in
      entry.sport == game.sport && entry.pair == source.pair
        && entry.date.flatMap(Self.day).map { abs($0 - day) <= 1 } == true
    }
    let start = game.startTime.flatMap(Self.instant)
    let fitting = related.filter { entry in
      !entry.members.contains { $0.feed == source.feed }
        && !entry.members.contains { other in
          guard let ours = game.gameNumber, let theirs = other.gameNumber else { return false }
          return ours != theirs
        }
        && !entry.members.contains { other in
          guard let start, let theirs = other.startTime.flatMap(Self.instant) else { return false }
          return abs(theirs.timeIntervalSince(start)) > sameGameWindow
        }
        // The day either side only for a start both give within the window (a feed that dates
        // by UTC): the same two teams on consecutive days (a weekend series) are two games.
        && (entry.date == date
          || entry.members.contains { other in
            guard let start, let theirs = other.startTime.flatMap(Self.instant) else { return false }
            return abs(theirs.timeIntervalSince(start)) <= sameGameWindow
          })
    }
    func distance(_ entry: CanonicalGameEntry) -> TimeInterval {
      guard let start else { return 0 }
      return entry.members.compactMap { $0.startTime.flatMap(Self.instant) }.map { abs($0.timeIntervalSince(start)) }
        .min() ?? 0
    }
    func numbered(_ entry: CanonicalGameEntry) -> Int {
      guard let ours = game.gameNumber else { return 0 }
      return entry.members.contains { $0.gameNumber == ours } || entry.number == ours ? 0 : 1
    }
    let best = fitting.min { a, b in
      (a.date == date ? 0 : 1, numbered(a), distance(a), a.number)
        < (b.date == date ? 0 : 1, numbered(b), distance(b), b.number)
    }
    if let best { return .join(best.id) }
    let taken = Set(related.filter { $0.date == date }.map(\.number))
    let number =
      game.gameNumber.flatMap { taken.contains($0) || $0 < 1 ? nil : $0 } ?? ((taken.max() ?? 0) + 1)
    return .create(
      CanonicalGameEntry(
        id: CanonicalGameEntry.id(sport: game.sport, date: date, pair: source.pair, number: number),
        sport: game.sport, date: date, pair: source.pair, number: number, members: [member]))
  }

  /// `2026-03-14` → days since 1970, for "within a day" (nil unless a month 1–12 and a day 1–31;
  /// a day past its month's end runs into the next, as `Calendar` has it). Arithmetic, not
  /// `Calendar`: the merge asks it for every game of every poll.
  static func day(_ date: String) -> Int? {
    // `YYYY-MM-DD` read from its bytes: a merge reads its candidates' dates on every poll.
    var fields = [0, 0, 0]
    var digits = [0, 0, 0]
    var field = 0
    for byte in date.utf8 {
      if byte == UInt8(ascii: "-") {
        field += 1
        guard field < 3 else { return nil }
      } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        guard digits[field] < 9 else { return nil }
        fields[field] = fields[field] * 10 + Int(byte - UInt8(ascii: "0"))
        digits[field] += 1
      } else {
        return nil
      }
    }
    let (year, month, day) = (fields[0], fields[1], fields[2])
    guard field == 2, !digits.contains(0), (1...12).contains(month), (1...31).contains(day) else { return nil }
    // Days from the proleptic Gregorian civil date (H. Hinnant's `days_from_civil`).
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Days since 1970 → `YYYY-MM-DD` (`CivilDate`), the inverse of `day`.
  static func date(_ days: Int) -> String { CivilDate.date(days: days) }

  static func instant(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}
