import Foundation

/// Runs the built `statline` executable as a user would, capturing its output and exit status.
public struct CommandRunner: Sendable {
  public struct Output: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// The executable beside the test bundle in the build folder.
  public static var executable: URL {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // The test runner may live inside the .xctest bundle (…/X.xctest/Contents/MacOS).
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("statline").path),
      folder.path != "/"
    {
      folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("statline")
  }

  /// - Parameter input: written to the command's standard input, which is then closed (nil:
  ///   the command gets an empty one).
  public static func run(
    _ arguments: [String], in directory: URL = PackageRoot.url, environment: [String: String] = [:],
    input: Data? = nil
  ) throws -> Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let out = Pipe()
    let err = Pipe()
    let stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    let feeding = Thread { [input] in
      if let input { stdin.fileHandleForWriting.write(input) }
      try? stdin.fileHandleForWriting.close()
    }
    feeding.start()
    // Read both pipes fully before waiting, so a large output cannot block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
