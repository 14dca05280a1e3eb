import Logging
import StatlinePush

extension JobLog {
  /// One line per send batch that did something: how many went, and how many were refused,
  /// retried or expired.
  public func record(_ batch: PushDispatcher.Report) {
    guard batch.claimed > 0 || batch.expired > 0 else { return }
    let level: Logger.Level = batch.disabled + batch.quarantined + batch.dropped + batch.expired > 0 ? .notice : .info
    logger.log(
      level: level, "pushes sent",
      metadata: [
        "delivered": "\(batch.delivered)", "retried": "\(batch.retried)", "disabled": "\(batch.disabled)",
        "quarantined": "\(batch.quarantined)", "dropped": "\(batch.dropped)", "expired": "\(batch.expired)",
      ])
  }
}
