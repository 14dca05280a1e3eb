import Foundation
import Logging
import StatlineCore
import StatlineEngine

/// Turns job events into structured log lines (swift-log): one per failed or changed poll at
/// info, unchanged polls at debug, and the periodic summary.
public struct JobLog: Sendable {
  public let logger: Logger

  public init(logger: Logger) { self.logger = logger }

  public func record(_ event: JobEvent) {
    switch event {
    case .summary(let summary):
      logger.info(
        "\(summary.line)",
        metadata: [
          "live": "\(summary.live)", "due": "\(summary.due)", "idle": "\(summary.idle)",
          "fetches": "\(summary.counters.fetches)", "notModified": "\(summary.counters.notModified)",
          "unchanged": "\(summary.counters.unchanged)", "parseErrors": "\(summary.counters.parseErrors)",
          "openBreakers": "\(summary.openBreakers.count)",
        ])
    case .storeFailed(let target, let error):
      logger.error("the store refused a poll's result", metadata: ["target": "\(target)", "error": "\(error)"])
    case .robotsBound(let bound):
      var metadata: Logger.Metadata = ["origin": "\(bound.origin)", "bound": "\(bound.name)"]
      switch bound {
      case .fileCut(_, let bytes): metadata["bytes"] = "\(bytes)"
      case .rulesIgnored(_, let count): metadata["ignored"] = "\(count)"
      case .tooCostly: break
      }
      logger.warning("a robots.txt hit a bound", metadata: metadata)
    case .polled(let report):
      var metadata: Logger.Metadata = [
        "url": "\(report.target.url)", "parser": "\(report.target.parser)", "outcome": "\(report.outcome.rawValue)",
        "lagMs": "\(report.lag.components.seconds * 1000 + report.lag.components.attoseconds / 1_000_000_000_000_000)",
      ]
      if let status = report.status { metadata["status"] = "\(status)" }
      if let next = report.nextDue { metadata["next"] = "\(Self.iso(next))" } else { metadata["next"] = "retired" }
      switch report.outcome {
      case .failed, .blocked:
        if let error = report.error { metadata["error"] = "\(error)" }
        if let capture = report.capture { metadata["capture"] = "\(capture)" }
        logger.warning("poll failed", metadata: metadata)
      case .stored:
        metadata["written"] = "\(report.written)"
        if report.discovered > 0 { metadata["discovered"] = "\(report.discovered)" }
        if report.targetsLeft > 0 {
          logger.warning(
            "the page asked for more targets than one poll creates (maxTargetsPerPage): the rest come with its next polls",
            metadata: [
              "url": "\(report.target.url)", "created": "\(report.discovered)", "left": "\(report.targetsLeft)",
            ])
        }
        if report.partial.isEmpty {
          logger.info("stored", metadata: metadata)
        } else {
          metadata["refused"] = "\(report.partial.count)"
          metadata["first"] = "\(report.partial[0])"
          if let capture = report.capture { metadata["capture"] = "\(capture)" }
          logger.warning("stored partially: records refused or unread", metadata: metadata)
        }
      case .absent:
        logger.info("not there yet", metadata: metadata)
      case .unchanged, .new:
        logger.debug("unchanged", metadata: metadata)
      }
    }
  }

  static func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    return formatter.string(from: date)
  }
}
