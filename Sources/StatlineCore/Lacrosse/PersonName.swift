import Foundation

/// Player names come as "Last, First" and "First Last" in the same file; the model wants
/// "First Last" (DESIGN.md §4).
public enum PersonName {
  /// "Caldwell II, David" → "David Caldwell II"; "Owen Duffy" stays; extra spaces go.
  public static func normalized(_ raw: String) -> String {
    // Most names need nothing: no comma, no stray spaces.
    if !raw.utf8.contains(UInt8(ascii: ",")), raw.utf8.first != 0x20, raw.utf8.last != 0x20,
      !raw.contains("  ")
    {
      return raw
    }
    let trimmed = raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let parts = trimmed.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).map {
      FastText.trimmed(String($0))
    }
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      return String(trimmed.filter { $0 != "," }).split(separator: " ").joined(separator: " ")
    }
    return "\(parts[1]) \(parts[0])"
  }
}
