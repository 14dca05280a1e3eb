import StatlineCore

/// An ncaa.com rankings page → one ranking record. The school cell's first-place votes in
/// parentheses (`Montana State (56)`) are read off its name (a qualifier such as `Miami (FL)`
/// stays); `T4` is rank 4, tied; `NR` or a blank previous rank is unranked. A row without a rank
/// or a school is left out and named; a paged poll's later pages are records of their own
/// (`/p2`), merged by the read API.
struct ComRankingsNormalizer: Normalizer {
  func normalize(_ page: ComRankingsPage, page source: Page) throws -> Batch {
    var batch = Batch(warnings: page.warnings)
    let columns = page.columns
    let rank = ComRankingsParser.column(.rank, in: columns).map { columns[$0] }
    let school = ComRankingsParser.column(.school, in: columns).map { columns[$0] }
    let known = Set(
      [ComRankingsParser.Role.points, .previous, .record, .firstPlaceVotes].compactMap {
        ComRankingsParser.column($0, in: columns).map { columns[$0] }
      } + [rank, school].compactMap { $0 })
    func cell(_ role: ComRankingsParser.Role, _ row: ComRankingsPage.Row) -> String? {
      ComRankingsParser.column(role, in: columns).flatMap { row.cells[columns[$0]] }.flatMap { $0.isEmpty ? nil : $0 }
    }
    var rows: [RankingRow] = []
    for row in page.rows {
      guard let rankText = rank.flatMap({ row.cells[$0] }), let (position, tied) = Self.rank(rankText),
        let printed = school.flatMap({ row.cells[$0] }), !printed.isEmpty
      else {
        batch.warnings.append(
          "a row without a rank or a school: left out (\(row.cells.values.sorted().joined(separator: " | ")))")
        continue
      }
      let (name, votes) = Self.votes(in: printed)
      var values: [String: String] = [:]
      for (column, value) in row.cells where !known.contains(column) { values[column] = value }
      let previousText = cell(.previous, row)
      if let previousText, Int(previousText) == nil { values["PREVIOUS"] = previousText }
      rows.append(
        RankingRow(
          rank: position, tied: tied, team: TeamRef(id: row.slug.map(NCAAIds.comTeam), name: name),
          points: cell(.points, row).flatMap(Self.number),
          firstPlaceVotes: votes ?? cell(.firstPlaceVotes, row).flatMap(Self.number), record: cell(.record, row),
          previous: previousText.flatMap { Int($0) }, values: values))
    }
    // A rank printed twice is a tie, whether or not the page wrote the T.
    let counts = Dictionary(rows.map { ($0.rank, 1) }, uniquingKeysWith: +)
    for index in rows.indices where counts[rows[index].rank, default: 0] > 1 { rows[index].tied = true }
    guard let day = page.through ?? page.fetchedDay, let year = Int(day.prefix(4)),
      let month = Int(day.dropFirst(5).prefix(2))
    else {
      throw StatlineError(
        .wrongPage, "the poll prints no 'Through Games' date and the page has no fetch time: its season is unknown",
        location: source.location)
    }
    let season = month >= 8 ? year + 1 : year
    let poll = "\(NCAAIds.source):com-\(page.pollPath)"
    batch.rankings.append(
      Ranking(
        poll: poll, name: page.name, sport: page.sport, season: season, edition: page.through ?? "undated",
        through: page.through, part: page.page > 1 ? page.page : nil, rows: rows,
        othersReceivingVotes: page.others.map { RankingVotes(team: TeamRef(name: $0.name), points: $0.points) },
        url: source.url))
    return batch
  }

  /// "T4", "T-4", "4", "4." → (4, tied?).
  static func rank(_ text: String) -> (Int, Bool)? {
    var text = Substring(text.trimmingCharacters(in: .whitespaces))
    let tied = text.uppercased().hasPrefix("T")
    if tied { text = text.dropFirst().drop { $0 == "-" } }
    return Int(text.prefix { $0.isNumber }).map { ($0, tied) }
  }

  /// "Montana State (56)" → ("Montana State", 56); "Miami (FL)" stays whole.
  static func votes(in text: String) -> (String, Int?) {
    guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return (text, nil) }
    let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
    guard let votes = Int(inside) else { return (text, nil) }
    return (text[..<open].trimmingCharacters(in: .whitespaces), votes)
  }

  /// "1,234" → 1234.
  static func number(_ text: String) -> Int? { Int(text.replacingOccurrences(of: ",", with: "")) }
}
