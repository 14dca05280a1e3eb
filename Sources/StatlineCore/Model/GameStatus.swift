/// The state of a game. A parser that does not recognise a state says `unknown`; it never
/// guesses `scheduled`.
public enum GameStatus: String, Codable, Sendable, CaseIterable {
  case scheduled, live, final, postponed, cancelled, suspended, unknown
}
