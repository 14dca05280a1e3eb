import Foundation

/// Standard output and error for the commands.
public enum Console {
  public static func out(_ text: String) {
    print(text)
  }

  public static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
