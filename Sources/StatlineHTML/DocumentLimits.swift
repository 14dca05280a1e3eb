import StatlineCore

/// Bounds on what the document layer accepts, so that hostile pages cost bounded time and memory.
public struct DocumentLimits: Sendable, Equatable {
  /// Larger bodies are refused before parsing.
  public var maximumBytes: Int
  /// Deeper element nesting is refused after parsing. Real stats pages nest under 50 levels;
  /// without a bound, XPath over a 100,000-deep tree costs time quadratic in the depth.
  public var maximumDepth: Int

  public init(maximumBytes: Int = 64 << 20, maximumDepth: Int = 512) {
    self.maximumBytes = maximumBytes
    self.maximumDepth = maximumDepth
  }

  public static let `default` = DocumentLimits()
}

extension DocumentLimits {
  /// The error for a document nested deeper than `maximumDepth`.
  func depthRefusal(url: String?) -> StatlineError {
    StatlineError(
      .unsafeDocument, "the markup is nested deeper than \(maximumDepth) levels", location: url,
      hint: "no real stats page or feed nests this deep; the document is broken or hostile")
  }
}
