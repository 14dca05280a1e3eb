/// Bounds on what the document layer accepts, so that hostile pages cost bounded time and memory.
public struct DocumentLimits: Sendable, Equatable {
  /// Larger bodies are refused before parsing.
  public var maximumBytes: Int

  public init(maximumBytes: Int = 64 << 20) {
    self.maximumBytes = maximumBytes
  }

  public static let `default` = DocumentLimits()
}
