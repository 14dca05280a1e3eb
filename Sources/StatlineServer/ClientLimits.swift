import StatlineCore

/// What one client (one address) may ask of the server: a rate for the read API (a token
/// bucket; off by default: phones behind one carrier NAT share an address, and a CDN in front
/// absorbs the rest) and a cap on the requests it has being answered at once (off by default).
/// The device routes keep their own rates (`DeviceRoutes.Limits`), on by default.
public struct ClientLimits: Sendable, Equatable {
  /// Read requests a second per address, and the burst above it (nil: no limit).
  public private(set) var readRate: Double?
  public private(set) var readBurst: Double
  /// Requests being answered at once per address, reads and writes (nil: no cap). An event
  /// stream holds its place while it starts, not while it stays open (the connection limit and
  /// the replay limit bound those).
  public private(set) var concurrentRequests: Int?

  public init() {
    readBurst = 0
  }

  /// Checked: a rate and a burst above zero (the burst defaults to twice the rate, at least 10),
  /// a cap of at least 1; `names` say what to call each in an error (a configuration key, a flag).
  public init(
    readRate: Double?, readBurst: Double?, concurrentRequests: Int?,
    names: (rate: String, burst: String, concurrent: String)
  ) throws(StatlineError) {
    if let readRate, !(readRate > 0 && readRate <= 1_000_000) {
      throw StatlineError(
        .configuration, "\(names.rate) \(readRate) is not a rate above 0 (requests a second per client address)",
        hint: "for example 20, or leave it out: reads are not limited")
    }
    if let readBurst, !(readBurst >= 1 && readBurst <= 1_000_000) {
      throw StatlineError(
        .configuration, "\(names.burst) \(readBurst) is below 1", hint: "for example 40 (twice the rate, the default)")
    }
    if readBurst != nil, readRate == nil {
      throw StatlineError(
        .configuration, "\(names.burst) is set without \(names.rate)", hint: "set \(names.rate) too, or neither")
    }
    if let concurrentRequests, concurrentRequests < 1 {
      throw StatlineError(
        .configuration, "\(names.concurrent) \(concurrentRequests) is below 1",
        hint: "for example 64, or leave it out: no cap")
    }
    self.readRate = readRate
    self.readBurst = readBurst ?? readRate.map { max(10, 2 * $0) } ?? 0
    self.concurrentRequests = concurrentRequests
  }
}
