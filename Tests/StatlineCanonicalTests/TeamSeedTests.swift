import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

/// The registry's seed is a data file read at start (`Resources/teams.tsv`), not generated code.
@Suite struct TeamSeedTests {
  @Test func theResourceLoadsEverySchoolOnce() throws {
    let teams = try TeamSeed.loaded.get()
    #expect(teams.count == 1945)
    #expect(Set(teams.map(\.orgId)).count == teams.count)
    let duke = try #require(teams.first { $0.orgId == "193" })
    #expect(duke.name == "Duke" && duke.espnId == "150" && duke.abbreviation == "DUKE")
    #expect(teams.filter { $0.espnId != nil }.count == 365)
    #expect(teams.filter { $0.statBroadcastGid != nil }.count == 281)
  }

  /// The committed file is exactly what `scripts/teams/seed.py` makes from the public reference
  /// data, so nobody edits it by hand (skipped, and said, where `../shared` is absent).
  @Test(.enabled(if: Self.reference != nil, "../shared/reference/teams is absent"))
  func theCommittedFileIsWhatTheGeneratorMakes() throws {
    let reference = try #require(Self.reference)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).tsv")
    defer { try? FileManager.default.removeItem(at: out) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", PackageRoot.file("scripts/teams/seed.py").path, reference.path, out.path]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let generated = try Data(contentsOf: out)
    let committed = try Data(contentsOf: PackageRoot.file("Sources/StatlineCanonical/Resources/teams.tsv"))
    #expect(generated == committed, "run scripts/teams/seed.py and commit its output")
  }

  @Test(arguments: [
    ("193\tDuke\t150\tDUKE\t\t\n", 1, 6), ("193\tDuke\t150\tDUKE\t\t\tduke\n\tNo Org\t\t\t\t\t\n", 2, 7),
    ("193\t\t150\tDUKE\t\t\tduke\n", 1, 7),
  ])
  func aMalformedLineIsRefusedByNumber(_ text: String, _ line: Int, _ fields: Int) {
    #expect {
      try TeamSeed.teams(parsing: text, file: "teams.tsv")
    } throws: { error in
      "\(error)".contains("line \(line) of the team seed has \(fields) fields") && "\(error)".contains("teams.tsv")
    }
  }

  @Test func anEmptySeedIsRefused() {
    #expect(throws: StatlineError.self) { try TeamSeed.teams(parsing: "\n", file: "teams.tsv") }
  }

  static let reference: URL? = {
    let folder = PackageRoot.url.deletingLastPathComponent().appendingPathComponent("shared/reference/teams")
    return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
  }()
}
