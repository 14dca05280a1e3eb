import Foundation
import StatlineCore

/// What the scrape job reports as it works: one event per poll, and a periodic summary.
public enum JobEvent: Sendable {
  case polled(PollReport)
  case summary(JobSummary)
  /// A poll's result could not be stored; the target keeps its schedule in memory.
  case storeFailed(target: String, error: String)
  /// A host's robots.txt hit one of the bounds Statline puts on it (too long, too many rules,
  /// too costly to match a URL).
  case robotsBound(RobotsBound)
}

/// How one poll ended.
public struct PollReport: Sendable {
  public var target: Target
  public var outcome: TargetState.Outcome
  /// The HTTP status, when a page came back.
  public var status: Int?
  public var error: String?
  /// Records written to the store (0 for an unchanged page).
  public var written: Int
  /// Game targets this poll created.
  public var discovered: Int
  /// From the moment the target was due to the moment its result was stored.
  public var lag: Duration
  public var capture: Int64?
  public var nextDue: Date?
  public var games: [Game]
  /// How long the fetch took (nil: no request was made).
  public var fetchDuration: Duration? = nil
  /// The change events the store derived from this poll, by type.
  public var events: [ChangeEvent.Kind: Int] = [:]
  /// A stored page's refused records and unread plays (empty: the page was read whole).
  public var partial: [String] = []
  /// The store refused the poll's commit (a full disk): nothing of it was stored, and the poll
  /// is `failed` with the store's error.
  public var commitRefused = false
  /// Targets the page asked for beyond `maxTargetsPerPage`: created by its next polls.
  public var targetsLeft = 0
}

/// Counters since the job started.
public struct JobCounters: Sendable, Equatable {
  public var fetches = 0
  public var notModified = 0
  public var unchanged = 0
  public var stored = 0
  public var parseErrors = 0
  public var fetchErrors = 0
  public var blocked = 0
  public var written = 0
  public var captures = 0
  public var absent = 0
  /// Stored polls whose page had records refused or unread.
  public var partial = 0
  /// Polls whose commit the store refused (a full disk): failed, nothing stored.
  public var storeErrors = 0

  public init() {}

  mutating func count(_ report: PollReport) {
    fetches += 1
    switch report.outcome {
    case .unchanged:
      unchanged += 1
      if report.status == 304 { notModified += 1 }
    case .stored: stored += 1
    case .failed:
      if report.commitRefused {
        storeErrors += 1
      } else if report.capture != nil {
        parseErrors += 1
      } else {
        fetchErrors += 1
      }
    case .blocked: blocked += 1
    case .absent: absent += 1
    case .new: break
    }
    written += report.written
    if report.capture != nil { captures += 1 }
    if !report.partial.isEmpty { partial += 1 }
  }
}

/// The periodic one-line summary.
public struct JobSummary: Sendable, Equatable {
  public var live = 0
  public var due = 0
  public var idle = 0
  public var retired = 0
  public var counters = JobCounters()
  public var openBreakers: [String] = []

  public init() {}

  public var line: String {
    let c = counters
    return
      "targets live \(live) / due \(due) / idle \(idle) / retired \(retired); fetches \(c.fetches), 304s \(c.notModified), "
      + "unchanged \(c.unchanged), stored \(c.stored) (\(c.written) records, \(c.partial) partial), parse errors \(c.parseErrors), "
      + "fetch errors \(c.fetchErrors), store errors \(c.storeErrors), blocked \(c.blocked), not there yet \(c.absent), open breakers \(openBreakers.count)"
      + (openBreakers.isEmpty ? "" : " (\(openBreakers.joined(separator: ", ")))")
  }
}
