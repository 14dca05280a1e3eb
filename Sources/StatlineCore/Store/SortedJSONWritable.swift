/// A value that writes its own canonical JSON, byte for byte what its synthesized `Codable`
/// gives through `SortedJSON`: for the records every live poll writes twice (a source game
/// and its canonical game), where building the encoder's node tree and sorting its keys was most
/// of the merge's cost.
///
/// A conformance writes its keys in sorted (UTF-8) order, `null` for a `NullEncoded` field and
/// nothing for a plain optional that is `nil`, as synthesized coding does. `SortedJSONTests`
/// holds every conformance to `JSONEncoder`'s bytes on random values, and to its type's stored
/// properties one by one: a field added to the type and not written here fails it.
protocol SortedJSONWritable {
  func write(to json: inout SortedJSONWriter)
}

extension SortedJSONWriter {
  /// Writes `,"name":` (no comma for the object's first key). Keys are plain ASCII names.
  mutating func key(_ name: StaticString, _ first: inout Bool) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    first = false
    bytes.append(UInt8(ascii: "\""))
    bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
  }

  mutating func value(_ text: String) { write(string: text) }
  mutating func value(_ number: Int) { bytes.append(contentsOf: String(number).utf8) }
  mutating func value(_ flag: Bool) { bytes.append(contentsOf: (flag ? "true" : "false").utf8) }

  mutating func value(_ text: String?) {
    if let text { write(string: text) } else { null() }
  }

  mutating func value(_ number: Int?) {
    if let number { value(number) } else { null() }
  }

  mutating func value(_ flag: Bool?) {
    if let flag { value(flag) } else { null() }
  }

  mutating func value(_ numbers: [Int]) {
    bytes.append(UInt8(ascii: "["))
    for (index, number) in numbers.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      value(number)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  mutating func value(_ texts: [String]) {
    bytes.append(UInt8(ascii: "["))
    for (index, text) in texts.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      write(string: text)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  mutating func value(_ writable: some SortedJSONWritable) { writable.write(to: &self) }

  mutating func null() { bytes.append(contentsOf: "null".utf8) }
}

extension Game: SortedJSONWritable {
  func write(to json: inout SortedJSONWriter) {
    var first = true
    json.bytes.append(UInt8(ascii: "{"))
    json.key("attendance", &first)
    json.value(attendance)
    json.key("away", &first)
    json.value(away)
    if let canonicalId {
      json.key("canonicalId", &first)
      json.value(canonicalId)
    }
    json.key("clock", &first)
    json.value(clock)
    if let conflict {
      json.key("conflict", &first)
      json.value(conflict)
    }
    json.key("date", &first)
    json.value(date)
    if let gameNumber {
      json.key("gameNumber", &first)
      json.value(Optional(gameNumber))
    }
    json.key("home", &first)
    json.value(home)
    json.key("id", &first)
    json.value(id)
    if let liveSource {
      json.key("liveSource", &first)
      json.value(liveSource)
    }
    json.key("neutralSite", &first)
    json.value(neutralSite)
    json.key("period", &first)
    json.value(period)
    json.key("periodLabel", &first)
    json.value(periodLabel)
    if let retiredInto {
      json.key("retiredInto", &first)
      json.value(retiredInto)
    }
    if let reversedSources {
      json.key("reversedSources", &first)
      json.value(reversedSources)
    }
    if let sources {
      json.key("sources", &first)
      json.value(sources)
    }
    json.key("sport", &first)
    json.value(sport.rawValue)
    json.key("startTime", &first)
    json.value(startTime)
    json.key("status", &first)
    json.value(status.rawValue)
    json.key("venue", &first)
    json.value(venue)
    json.bytes.append(UInt8(ascii: "}"))
  }
}

extension TeamLine: SortedJSONWritable {
  func write(to json: inout SortedJSONWriter) {
    var first = true
    json.bytes.append(UInt8(ascii: "{"))
    json.key("periodScores", &first)
    json.value(periodScores)
    json.key("rank", &first)
    json.value(rank)
    json.key("rankSource", &first)
    json.value(rankSource)
    json.key("record", &first)
    json.value(record)
    json.key("score", &first)
    json.value(score)
    json.key("team", &first)
    json.value(team)
    json.key("winner", &first)
    json.value(winner)
    json.bytes.append(UInt8(ascii: "}"))
  }
}

extension TeamRef: SortedJSONWritable {
  func write(to json: inout SortedJSONWriter) {
    var first = true
    json.bytes.append(UInt8(ascii: "{"))
    json.key("abbreviation", &first)
    json.value(abbreviation)
    json.key("id", &first)
    json.value(id)
    json.key("name", &first)
    json.value(name)
    json.bytes.append(UInt8(ascii: "}"))
  }
}

extension GameConflict: SortedJSONWritable {
  func write(to json: inout SortedJSONWriter) {
    var first = true
    json.bytes.append(UInt8(ascii: "{"))
    json.key("kept", &first)
    json.value(kept)
    json.key("keptScore", &first)
    json.value(keptScore)
    json.key("other", &first)
    json.value(other)
    json.key("otherScore", &first)
    json.value(otherScore)
    json.bytes.append(UInt8(ascii: "}"))
  }
}
