/// A page's games by id, the first of an id winning: what validation checks box scores and plays
/// against. A page of one game (every play-by-play, box score and StatCrew file) is looked up by
/// comparing that game's id: no table is hashed, and no game is copied into one.
struct PageGames: ExpressibleByDictionaryLiteral {
  /// The games, in the page's order.
  let all: [Game]
  /// The id of the page's one game (nil where it has none or several).
  private let only: String?
  /// Ids → index in `all`, where the page has several games.
  private let table: [String: Int]

  init(_ games: [Game]) {
    all = games
    if games.count == 1 {
      only = games[0].id
      table = [:]
    } else {
      only = nil
      var table: [String: Int] = [:]
      table.reserveCapacity(games.count)
      for index in games.indices where table[games[index].id] == nil { table[games[index].id] = index }
      self.table = table
    }
  }

  /// Games found by the keys given (a test's table), which need not be their own ids.
  init(dictionaryLiteral elements: (String, Game)...) {
    all = elements.map(\.1)
    only = elements.count == 1 ? elements[0].0 : nil
    var table: [String: Int] = [:]
    for index in elements.indices where elements.count > 1 && table[elements[index].0] == nil {
      table[elements[index].0] = index
    }
    self.table = table
  }

  /// The index in `all` of the game `id` names.
  func index(of id: String) -> Int? {
    if let only { return only == id ? 0 : nil }
    return table.isEmpty ? nil : table[id]
  }

  subscript(id: String) -> Game? { index(of: id).map { all[$0] } }

  /// The sport of the game `id` names (read in place: the game is not copied).
  func sport(of id: String) -> Sport? { index(of: id).map { all[$0].sport } }
}
