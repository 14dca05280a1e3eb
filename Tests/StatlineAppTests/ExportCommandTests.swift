import CompressNIO
import Foundation
import NIOCore
import StatlineCore
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

/// `statline export --bundle` (issue 54): the file an app ships is the JSON `GET /v1/bundle`
/// answers, gzipped.
struct ExportCommandTests {
  @Test func theExportedBundleIsTheAPIsBundleGzipped() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: path)
    let game = Game(
      id: "ncaa:1", sport: .lacrosseMen, status: .final, date: "2026-03-07",
      away: TeamLine(team: TeamRef(id: "ncaa:t-a", name: "Away"), score: 3),
      home: TeamLine(team: TeamRef(id: "ncaa:t-h", name: "Home"), score: 4))
    _ = try await store.write(Batch(games: [game], teams: [Team(id: "ncaa:t-a", name: "Away", sport: .lacrosseMen)]))
    let file = folder.appendingPathComponent("bundle.json.gz").path
    let output = try CommandRunner.run([
      "export", "--bundle", file, "--store", path, "--sport", "lacrosse-men", "--season", "2026",
    ])
    #expect(output.status == 0, "\(output.stderr)")
    let version = try await store.version()
    #expect(
      output.stdout.contains("1 teams, 1 games, 0 poll records of season 2026; cursor \(version)"), "\(output.stdout)")
    var buffer = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: file)))
    var json = try buffer.decompress(with: .gzip())
    let exported = json.readBytes(length: json.readableBytes) ?? []
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), configuration: ReadAPI.Configuration())
    let served = await api.respond(
      APIRequest(method: "GET", path: "/v1/bundle", query: "sport=lacrosse-men&season=2026"))
    #expect(served.status == 200 && exported == served.body, "the same bytes as GET /v1/bundle")

    let bad = try CommandRunner.run(["export", "--bundle", file, "--store", path, "--season", "26"])
    #expect(bad.status == 64 && bad.stderr.contains("--season '26' is not a year"), "\(bad.stderr)")
    let nowhere = try CommandRunner.run(["export", "--bundle", "/nonexistent/dir/b.gz", "--store", path])
    #expect(nowhere.status != 0 && nowhere.stderr.contains("cannot write the bundle to /nonexistent/dir/b.gz"))
  }
}
