import Foundation

/// The CPU PostgreSQL's own processes have used (every process named `postgres` in /proc),
/// so a benchmark reports the server's side apart from Statline's. Needs the right to read
/// their /proc entries (root, or the same user); 0 where /proc is not there.
enum PostgresCPU {
  static func seconds() -> Double {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    var total = 0.0
    for entry in entries where entry.allSatisfy(\.isNumber) {
      guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
        stat[stat.index(after: open)..<close] == "postgres"
      else { continue }
      // Fields after the command: state is field 3; utime and stime are fields 14 and 15.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
      total += (user + system) / ticks
    }
    return total
  }
}
