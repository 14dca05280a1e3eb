import Foundation
import StatlineCore
import StatlinePostgres
import Testing

/// Malformed PostgreSQL URLs are refused with the password hidden; ports are 1...65535.
@Suite struct PostgresLocationTests {
  @Test(arguments: [
    ("postgres://statline:pw@host:notaport/db", "not a PostgreSQL URL"),
    ("postgres://statline:pw@host:99999/db", "the port '99999' is not a number from 1 to 65535"),
    ("postgres://statline:pw@host:0/db", "the port '0'"),
    ("postgres://statline:pw@host/", "names no database"),
    ("postgres://statline:pw@host/db?sslmode=maybe", "sslmode maybe"),
  ])
  func aBadURLIsRefusedWithoutItsPassword(_ url: String, _ reason: String) {
    do {
      _ = try PostgresLocation(url: url, environment: [:])
      Issue.record("\(url) must be refused")
    } catch {
      #expect(error.reason.contains(reason), "\(error)")
      #expect(!error.description.contains(":pw@"), "\(error)")
      #expect(error.description.contains("statline:***@"), "\(error)")
    }
  }

  @Test func aGoodURLKeepsItsPortAndShowsNoPassword() throws {
    let location = try PostgresLocation(url: "postgres://statline:pw@db.example:6543/scores", environment: [:])
    #expect(location.port == 6543 && location.password == "pw")
    #expect(location.description == "postgres://statline@db.example:6543/scores")
    #expect(
      PostgresLocation.redacted("postgres://statline:pw@host:notaport/db") == "postgres://statline:***@host:notaport/db"
    )
  }
}
