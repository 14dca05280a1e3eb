import Foundation
import StatlineCore

#if canImport(Glibc)
  import Glibc
#endif

/// The one job that writes a SQLite store: an exclusive `flock` on `<store>.lock`, taken at
/// start and held for the process's life (the kernel lets it go when the process ends, however it
/// ends). A second `statline run` (or `once`, or `demo`) on the same file is refused at start,
/// naming the process that holds it; readers (`serve`, `status`, `events`) never take it.
/// Two jobs on one file would ask every site twice and derive every goal twice.
public final class SQLiteWriterLock: Sendable {
  /// The lock file beside a store.
  public static func path(of store: String) -> String { store + ".lock" }

  private let descriptor: Locked<Int32?>

  /// Takes the lock, or throws naming the process that holds it.
  public init(store: String) throws(StatlineError) {
    let path = Self.path(of: store)
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw StatlineError(
        .store, "cannot open the store's lock file: \(String(cString: strerror(errno)))", location: path,
        hint: "the job needs to write beside its store")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let holder = Self.holder(fd)
      close(fd)
      throw StatlineError(
        .store,
        "the store is already written by another job (\(holder.map { "process \($0)" } ?? "a process") holds \(path))",
        location: store,
        hint:
          "stop that job first, or give this one a store of its own; `serve`, `status` and `events` may read it meanwhile"
      )
    }
    let text = "\(getpid())\n"
    _ = ftruncate(fd, 0)
    _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    descriptor = Locked(fd)
  }

  /// Lets the lock go (also when the lock is released with the process).
  public func release() {
    descriptor.withLock { fd in
      guard let open = fd else { return }
      _ = flock(open, LOCK_UN)
      close(open)
      fd = nil
    }
  }

  deinit { release() }

  /// The process id written in the lock file by its holder.
  private static func holder(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = pread(fd, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
