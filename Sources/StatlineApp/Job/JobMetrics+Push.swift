import CoreMetrics
import StatlinePush

extension JobMetrics {
  /// `statline_pushes_total{outcome}` per send batch, and `statline_push_latency_seconds`: from
  /// the evaluator's plan to the service's acceptance, per alert delivered; and
  /// `statline_push_sender_paused{sender}`, 1 while a sender is paused because most of its
  /// answers would suspend their devices (`push.disableBurst`), else 0.
  public func record(_ batch: PushDispatcher.Report) {
    for (sender, paused) in batch.senders {
      Gauge(label: "statline_push_sender_paused", dimensions: [("sender", sender)], factory: factory).record(
        paused ? 1 : 0)
    }
    for (outcome, count) in [
      ("delivered", batch.delivered), ("retried", batch.retried), ("disabled", batch.disabled),
      ("quarantined", batch.quarantined), ("dropped", batch.dropped), ("expired", batch.expired),
    ] where count > 0 {
      Counter(label: "statline_pushes_total", dimensions: [("outcome", outcome)], factory: factory).increment(
        by: count)
    }
    let latency = Timer(label: "statline_push_latency_seconds", factory: factory)
    for seconds in batch.latencies { latency.recordNanoseconds(Int64(max(0, seconds) * 1_000_000_000)) }
  }
}
