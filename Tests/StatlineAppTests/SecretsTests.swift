import Foundation
import StatlineApp
import StatlineTesting
import Testing

/// Credentials never reach output, whatever the command is given.
@Suite(.serialized) struct SecretsTests {
  @Test(arguments: [
    ["status", "--store", "postgres://statline:pw-secret@host:notaport/db"],
    ["status", "--store", "postgres://statline:pw-secret@127.0.0.1:99999/db"],
    ["migrate", "--store", "postgres://statline:pw-secret@host:notaport/db"],
  ])
  func aMalformedStoreURLIsReportedWithoutItsPassword(_ arguments: [String]) throws {
    let output = try CommandRunner.run(arguments)
    #expect(output.status != 0)
    #expect(!(output.stdout + output.stderr).contains("pw-secret"), "\(output.stderr)")
    #expect(output.stderr.contains("statline:***@"), "\(output.stderr)")
  }
}
