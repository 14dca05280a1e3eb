import Foundation

/// Standard output and error for the commands.
enum Console {
  static func out(_ text: String) {
    print(text)
  }

  static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
