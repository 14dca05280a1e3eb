import Foundation

/// libFuzzer's entry points (its `main` is libFuzzer's: this file must not be `main.swift`).
/// The target comes from `STATLINE_FUZZ_TARGET`; `list` prints the names and exits.
private let target: @Sendable (Data) -> Void = {
  let environment = ProcessInfo.processInfo.environment
  let name = environment["STATLINE_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTargets.named(name, url: environment["STATLINE_FUZZ_URL"]) else {
    // Before libFuzzer starts: `_exit`, so that its exit handler does not call this a crash.
    let message =
      name == "list"
      ? FuzzTargets.names.joined(separator: "\n") + "\n"
      : "statline-fuzz: set STATLINE_FUZZ_TARGET to one of: \(FuzzTargets.names.joined(separator: ", "))\n"
    FileHandle(fileDescriptor: name == "list" ? 1 : 2).write(Data(message.utf8))
    _exit(name == "list" ? 0 : 2)
  }
  return target
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
  _ = target
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  target(data)
  return 0
}
