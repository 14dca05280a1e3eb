import ArgumentParser
import StatlineCore

/// Exit statuses, as in sysexits.h.
public enum ExitStatus {
  /// A usage error: bad flags, a bad config file, a missing file.
  public static let usage: Int32 = 64
  /// Input that could not be parsed or validated.
  public static let dataError: Int32 = 65

  /// The status a `StatlineError` ends the program with.
  public static func code(for error: StatlineError) -> Int32 {
    switch error.kind {
    case .configuration, .noParser, .ambiguousParser, .io: usage
    default: dataError
    }
  }
}

/// Prints a `StatlineError` to stderr and gives the exit code a command ends with (every
/// command module's commands fail this way).
public func fail(_ error: StatlineError, prefix: String = "statline") -> ExitCode {
  Console.error("\(prefix): \(error)")
  return ExitCode(ExitStatus.code(for: error))
}
