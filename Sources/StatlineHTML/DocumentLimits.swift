import StatlineCore

/// Bounds on what the document layer accepts, so that hostile pages cost bounded time and memory.
public struct DocumentLimits: Sendable, Equatable {
  /// Larger bodies are refused before parsing.
  public var maximumBytes: Int
  /// Deeper element nesting is refused after parsing. Real stats pages nest under 50 levels;
  /// without a bound, XPath over a 100,000-deep tree costs time quadratic in the depth.
  public var maximumDepth: Int
  /// The XPath work one document may cost, in libxml2's operation count (about one per node an
  /// axis visits), summed over every query a parser asks of it: tag soup that leaves each row
  /// inside the one before makes every per-row `.//` query walk the rest of the page. The real
  /// pages need at most 24,186 steps (the legacy box score), a 20 MB page 7.7 million.
  /// libxml2 does not count the work of merging overlapping results (`X//tr` where the X nest),
  /// which the shipped queries avoid by writing `X/descendant::tr` (see the README). 0: no limit.
  public var maximumQuerySteps: Int

  public init(maximumBytes: Int = 64 << 20, maximumDepth: Int = 512, maximumQuerySteps: Int = 20_000_000) {
    self.maximumBytes = maximumBytes
    self.maximumDepth = maximumDepth
    self.maximumQuerySteps = maximumQuerySteps
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

  /// The error for a document whose queries ran past `maximumQuerySteps`.
  func queryStepRefusal(url: String?) -> StatlineError {
    StatlineError(
      .unsafeDocument, "querying the page took more than \(maximumQuerySteps) XPath steps", location: url,
      hint: "tag soup nests the page so that every query walks all of it; the page is broken or hostile")
  }
}
