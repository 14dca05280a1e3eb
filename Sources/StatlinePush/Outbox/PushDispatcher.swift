import Foundation
import Logging
import StatlineCore

/// The send loop's step (architecture.md#the-push-outbox): gives up expired alerts, claims a
/// batch of due slots with a lease, sends them with at most `inFlight` requests at once through
/// the transport for each device's kind, and writes back what each came to: done (sent, or
/// dropped), a suspended device, or a retry after a backoff with jitter until the alert expires.
public struct PushDispatcher: Sendable {
  public struct Configuration: Sendable {
    /// Slots claimed per batch.
    public var batch = 256
    /// How long a claim holds (a worker that dies loses its claims after it).
    public var lease: TimeInterval = 60
    /// Requests in flight at once.
    public var inFlight = 64
    /// The longest one request may take (the sender's deadline).
    public var requestDeadline: TimeInterval = 10

    public init() {}

    /// Rounds of `inFlight` requests one claim holds at most: a claim is `batch`, or fewer
    /// when `inFlight` is small, so its lease (below) stays short and a worker that dies holds
    /// its claims for about a minute, not past an in-game alert's expiry.
    public static let roundsPerClaim = 4

    /// The slots one claim takes.
    public var claimSize: Int { min(max(1, batch), max(1, inFlight) * Self.roundsPerClaim) }

    /// The lease a batch is claimed with: at least `lease`, and long enough for the whole claim
    /// to be sent at `inFlight` at once with every request taking its full deadline, so a slow
    /// APNs never lets another lane or worker claim a batch still being sent (and send it twice).
    public var batchLease: TimeInterval {
      let rounds = (claimSize + max(1, inFlight) - 1) / max(1, inFlight)
      return max(lease, Double(rounds) * requestDeadline + 5)
    }

    /// Answers written back per transaction, as they come (a worker killed mid-batch repeats at
    /// most these and the requests in flight: an answered alert is never held unwritten for the
    /// whole batch).
    public var settleEvery: Int { max(1, inFlight) }
  }

  /// The send loops `PushService` runs by default, each with `inFlight / lanes` requests of the
  /// configured total.
  public static let lanes = 2

  /// What one batch came to.
  public struct Report: Sendable, Equatable {
    public var claimed = 0
    public var delivered = 0
    public var disabled = 0
    public var quarantined = 0
    public var dropped = 0
    public var retried = 0
    /// Alerts given up past their expiry.
    public var expired = 0
    /// Why the sender is misconfigured, when an answer said so (the loop pauses).
    public var misconfigured: String?
    /// Seconds from planning to the service's acceptance, per delivered alert.
    public var latencies: [Double] = []
    /// Each sender configured (`APNs`, `FCM`), and whether it was paused by its answers
    /// (`SuspensionGuard`) when the batch began.
    public var senders: [String: Bool] = [:]
  }

  let outbox: any DeviceRegistry & PushOutbox
  let transports: [Device.Kind: any PushTransport]
  let configuration: Configuration
  /// Pauses a sender whose answers would suspend most devices.
  public let suspensions: SuspensionGuard
  let now: @Sendable () -> Date
  let random: @Sendable () -> Double
  let logger: Logger

  public init(
    outbox: any DeviceRegistry & PushOutbox, transports: [any PushTransport],
    configuration: Configuration = Configuration(), suspensions: SuspensionGuard? = nil,
    now: @escaping @Sendable () -> Date, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    logger: Logger = Logger(label: "statline.push")
  ) {
    self.outbox = outbox
    self.suspensions = suspensions ?? SuspensionGuard(logger: logger)
    var byKind: [Device.Kind: any PushTransport] = [:]
    for transport in transports { for kind in transport.kinds { byKind[kind] = transport } }
    self.transports = byKind
    self.configuration = configuration
    self.now = now
    self.random = random
    self.logger = logger
  }

  /// The device kinds some transport reaches (the evaluator plans for these only).
  public var kinds: Set<Device.Kind> { Set(transports.keys) }

  /// One batch: claim, send, settle. `claimed` is 0 when nothing was due.
  public func dispatchBatch() async throws -> Report {
    var report = Report()
    let start = now()
    let paused = Set(suspensions.paused(at: start).map(\.sender))
    for kind in transports.keys {
      let sender = SuspensionGuard.sender(of: kind)
      report.senders[sender] = paused.contains(sender)
    }
    report.expired = try await outbox.dropExpiredAlerts(at: start)
    let slots = try await outbox.claimAlerts(
      limit: configuration.claimSize, at: start, leaseUntil: start.addingTimeInterval(configuration.batchLease))
    report.claimed = slots.count
    guard !slots.isEmpty else { return report }
    var devices: [String: Device] = [:]
    for device in try await outbox.devices(ids: slots.map(\.deviceId)) { devices[device.id] = device }

    var settlements: [OutboxSettlement] = []
    try await send(slots, devices) { slot, verdict in
      settlements.append(try await settle(slot, verdict, device: devices[slot.deviceId], into: &report))
      if settlements.count >= configuration.settleEvery {
        try await outbox.settleAlerts(settlements, at: now())
        settlements = []
      }
    }
    if !settlements.isEmpty { try await outbox.settleAlerts(settlements, at: now()) }
    return report
  }

  /// What one answer does: counted, the device suspended or a channel retired where it says so,
  /// and the slot's settlement.
  func settle(_ slot: OutboxSlot, _ verdict: PushVerdict, device: Device?, into report: inout Report) async throws
    -> OutboxSettlement
  {
    let settlement: OutboxSlot.Settlement
    switch verdict {
    case .delivered:
      report.delivered += 1
      if let planned = slot.alert.plannedAt { report.latencies.append(now().timeIntervalSince(planned)) }
      settlement = .finished(version: slot.version)
      if slot.alert.activity?.ending == true, let device, device.kind == .apnsChannel { try await retire(device) }
    case .suspend(let suspension):
      if suspension.kind == .disabled { report.disabled += 1 } else { report.quarantined += 1 }
      if let device = try await outbox.suspendDevice(id: slot.deviceId, suspension) {
        logger.notice(
          "a device no longer gets pushes",
          metadata: [
            "device": "\(device.id)", "token": "\(device.shownToken)", "state": "\(suspension.kind.rawValue)",
            "why": "\(suspension.why)",
          ])
      }
      settlement = .finished(version: slot.version)
    case .dropped(let why):
      report.dropped += 1
      logger.warning("a push was refused for good", metadata: ["device": "\(slot.deviceId)", "why": "\(why)"])
      settlement = .finished(version: slot.version)
    case .retry(_, let after):
      report.retried += 1
      settlement = .retry(version: slot.version, jitter: random(), atLeast: after ?? 0)
    case .misconfigured(let why):
      report.retried += 1
      report.misconfigured = why
      settlement = .retry(version: slot.version, jitter: random())
    }
    return OutboxSettlement(deviceId: slot.deviceId, collapseId: slot.collapseId, settlement)
  }

  /// A game's broadcast channel after its end went out: deleted at APNs, then from the store
  /// (with its slot); one APNs would not delete is quarantined with why, so `statline devices
  /// list` shows it.
  func retire(_ device: Device) async throws {
    guard let transport = transports[device.kind] else { return }
    if let why = await transport.retire(device) {
      logger.warning(
        "a game's broadcast channel was not deleted", metadata: ["channel": "\(device.shownToken)", "why": "\(why)"])
      _ = try await outbox.suspendDevice(
        id: device.id,
        .init(
          kind: .quarantined, why: "the game ended; deleting its channel failed: \(why)", since: Freshness.iso(now())))
    } else {
      _ = try await outbox.deleteDevice(id: device.id)
    }
  }

  /// Makes live again the devices a sender suspended just before it paused (its answers were a
  /// configuration mistake, not the devices').
  func restore(_ ids: [String]) async {
    do {
      for var device in try await outbox.devices(ids: ids) where device.suspended != nil {
        device.suspended = nil
        _ = try await outbox.upsertDevice(device)
      }
      logger.notice("devices suspended by a paused sender are live again", metadata: ["devices": "\(ids.count)"])
    } catch {
      logger.error("devices a paused sender suspended could not be made live again", metadata: ["error": "\(error)"])
    }
  }

  /// Sends each slot's alert with at most `inFlight` at once, handing each answer to `answered`
  /// as it comes. A slot whose device is gone, suspended or of a kind no transport reaches is
  /// done without a request.
  func send(
    _ slots: [OutboxSlot], _ devices: [String: Device],
    answered: (OutboxSlot, PushVerdict) async throws -> Void
  ) async throws {
    // Each answer is judged (`SuspensionGuard`) as it is taken, in order: a trip gives back the
    // devices suspended by the answers taken before it.
    func take(_ done: (OutboxSlot, Device, PushVerdict)) async throws {
      let (slot, device, answer) = done
      let (verdict, restore) = suspensions.admit(answer, deviceId: device.id, kind: device.kind, at: now())
      try await answered(slot, verdict)
      if !restore.isEmpty { await self.restore(restore) }
    }
    try await withThrowingTaskGroup(of: (OutboxSlot, Device, PushVerdict).self) { group in
      var running = 0
      for slot in slots {
        guard let device = devices[slot.deviceId], device.isLive, let transport = transports[device.kind] else {
          try await answered(slot, .dropped("the device is gone, suspended or of a kind no sender reaches"))
          continue
        }
        if let pause = suspensions.pause(of: device.kind, at: now()) {
          try await answered(slot, .retry(pause.why, after: max(1, pause.until.timeIntervalSince(now()))))
          continue
        }
        if running == max(1, configuration.inFlight), let done = try await group.next() {
          running -= 1
          try await take(done)
        }
        running += 1
        group.addTask { (slot, device, await transport.deliver(slot.alert, to: device)) }
      }
      while let done = try await group.next() { try await take(done) }
    }
  }
}
