import Synchronization

#if STATLINE_PTHREAD_LOCKS
  import Foundation

  /// A value guarded by a lock: `Synchronization.Mutex` in every build but ThreadSanitizer's,
  /// where it is this `NSLock` (a pthread mutex). That ThreadSanitizer does not see Mutex's
  /// lock on this toolchain and reports every access inside `withLock` as a race
  /// (scripts/lib/tsan-mutex-probe.swift shows it); it does see pthread mutexes.
  /// `scripts/sanitize thread` builds with `-DSTATLINE_PTHREAD_LOCKS`.
  public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
      self.value = value
    }

    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
      lock.lock()
      defer { lock.unlock() }
      return try body(&value)
    }
  }
#else
  /// A value guarded by a lock: `Synchronization.Mutex`, except in ThreadSanitizer builds
  /// (`-DSTATLINE_PTHREAD_LOCKS`, see `scripts/sanitize`), where it is a pthread mutex
  /// ThreadSanitizer can see.
  public typealias Locked<Value> = Mutex<Value>
#endif
