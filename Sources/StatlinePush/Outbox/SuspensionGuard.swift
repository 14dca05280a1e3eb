import Foundation
import Logging
import StatlineCore
import Synchronization

/// Keeps a wrong key, topic or environment from disabling every device (architecture.md#the-push-outbox):
/// per sender (APNs, FCM), the answers of the last `window` are counted, and when more than
/// `share` of them (at least `minimum` answers) would suspend their device, that sender pauses —
/// it is a configuration mistake (a sandbox token sent to production answers `BadDeviceToken`
/// for everyone), not a wave of uninstalls. While paused, nothing it answers suspends a device:
/// the alert is retried, and its sends wait `pause` before trying again; the devices it
/// suspended in the window before it paused are made live again. Every trip is logged at
/// critical and kept in `paused`. A class with a lock: many send loops answer at once.
public final class SuspensionGuard: Sendable {
  public struct Configuration: Sendable, Equatable {
    /// The share of a minute's answers that, suspending, pauses the sender (`push.disableBurst`).
    public var share = 0.5
    /// Fewer answers than this in the window never pause it.
    public var minimum = 20
    public var window: TimeInterval = 60
    /// How long a paused sender waits before it sends again (and is judged again).
    public var pause: TimeInterval = 60

    public init() {}
  }

  /// A sender paused, and why.
  public struct Pause: Sendable, Equatable {
    public var sender: String
    public var until: Date
    public var why: String
  }

  struct Answer {
    var at: Date
    var suspending: Bool
    var deviceId: String?
  }

  /// One sender's answers of the last `window`, oldest first, and how many of them suspend:
  /// each answer is counted in O(1) (a busy sender answers thousands a second, and every one is
  /// judged under the lock).
  struct Window {
    private var answers: [Answer] = []
    private var head = 0
    private(set) var suspending = 0
    var count: Int { answers.count - head }

    mutating func add(_ answer: Answer, keeping window: TimeInterval) {
      while head < answers.count, answer.at.timeIntervalSince(answers[head].at) >= window {
        if answers[head].suspending { suspending -= 1 }
        head += 1
      }
      if head > 1024, head * 2 > answers.count {
        answers.removeFirst(head)
        head = 0
      }
      answers.append(answer)
      if answer.suspending { suspending += 1 }
    }

    /// The devices the answers in the window suspended.
    var suspended: [String] { answers[head...].compactMap(\.deviceId) }
  }

  struct State {
    var answers: [String: Window] = [:]
    var paused: [String: Pause] = [:]
  }

  public let configuration: Configuration
  private let state = Mutex(State())
  private let logger: Logger

  public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "statline.push")) {
    self.configuration = configuration
    self.logger = logger
  }

  /// The sender a device kind's pushes go through.
  public static func sender(of kind: Device.Kind) -> String { kind == .fcm ? "FCM" : "APNs" }

  /// The senders paused now.
  public func paused(at now: Date) -> [Pause] {
    state.withLock { state in state.paused.values.filter { $0.until > now }.sorted { $0.sender < $1.sender } }
  }

  /// Whether the sender of `kind` is paused at `now` (its pause, if so).
  public func pause(of kind: Device.Kind, at now: Date) -> Pause? {
    state.withLock { state in state.paused[Self.sender(of: kind)].flatMap { $0.until > now ? $0 : nil } }
  }

  /// What an answer comes to once counted: a suspension while the sender's answers are mostly
  /// suspensions becomes a retry, and the devices suspended just before are returned to be made
  /// live again.
  public func admit(_ verdict: PushVerdict, deviceId: String, kind: Device.Kind, at now: Date)
    -> (verdict: PushVerdict, restore: [String])
  {
    let sender = Self.sender(of: kind)
    var suspending = false
    if case .suspend = verdict { suspending = true }
    let (tripped, restore, why): (Bool, [String], String?) = state.withLock { state in
      state.answers[sender, default: Window()].add(
        Answer(at: now, suspending: suspending, deviceId: suspending ? deviceId : nil), keeping: configuration.window)
      if let held = state.paused[sender], held.until > now { return (suspending, [], nil) }
      let answers = state.answers[sender, default: Window()]
      let (count, suspended) = (answers.count, answers.suspending)
      guard suspending, count >= configuration.minimum, Double(suspended) > configuration.share * Double(count) else {
        return (false, [], nil)
      }
      let why =
        "\(sender): \(suspended) of the last \(count) answers (in \(Int(configuration.window)) s) would disable or "
        + "quarantine their device: a wrong key, topic or environment, not a wave of uninstalls; nothing is "
        + "suspended while it lasts, and sending to \(sender) waits \(Int(configuration.pause)) s"
      state.paused[sender] = Pause(sender: sender, until: now.addingTimeInterval(configuration.pause), why: why)
      // The window starts again after the pause; the devices it suspended are given back.
      let restore = answers.suspended.filter { $0 != deviceId }
      state.answers[sender] = Window()
      return (true, restore, why)
    }
    if let why { logger.critical("push sending is paused", metadata: ["sender": "\(sender)", "why": "\(why)"]) }
    guard tripped, case .suspend(let suspension) = verdict else { return (verdict, restore) }
    return (.retry("\(sender) is paused: \(suspension.why) for most devices", after: configuration.pause), restore)
  }
}
