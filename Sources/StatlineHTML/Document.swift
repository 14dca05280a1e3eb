import CLibXML2
import Foundation
import StatlineCore

/// A parsed HTML or XML document, owning its libxml2 tree.
///
/// Nodes keep their document alive, so a `Node` never outlives the memory it points into.
/// A document is not thread-safe: parse, query and drop it within one task.
public final class Document {
  public enum Kind: Sendable { case html, xml }

  public let kind: Kind
  let pointer: xmlDocPtr
  let limits: DocumentLimits
  let url: String?
  private var xpathContext: xmlXPathContextPtr?
  private var cssCache: [String: String] = [:]
  /// Compiled XPath expressions of this document: a parser asks the same ones for every row.
  private var compiled: [String: xmlXPathCompExprPtr] = [:]
  /// Whether the elements are numbered in document order (before the first XPath query).
  private var ordered = false

  init(kind: Kind, pointer: xmlDocPtr, limits: DocumentLimits = .default, url: String? = nil) {
    self.kind = kind
    self.pointer = pointer
    self.limits = limits
    self.url = url
  }

  deinit {
    // The XPath context must go before the document it points into.
    for expression in compiled.values { xmlXPathFreeCompExpr(expression) }
    if let xpathContext { xmlXPathFreeContext(xpathContext) }
    xmlFreeDoc(pointer)
  }

  /// The root element, if the document has one.
  public var root: Node? {
    xmlDocGetRootElement(pointer).map { Node(document: self, pointer: $0) }
  }

  /// The XPath steps this document's queries have cost so far (see
  /// `DocumentLimits.maximumQuerySteps`).
  public var queryStepsUsed: Int { Int(xpathContext?.pointee.opCount ?? 0) }

  /// The document's declared or detected encoding.
  public var encoding: String? { LibXML.borrow(pointer.pointee.encoding) }

  // MARK: Queries from the document root

  /// Nodes matching an XPath expression, evaluated at the document node.
  public func select(xpath: String) throws(StatlineError) -> [Node] {
    try nodes(xpath, at: documentNode)
  }

  /// Elements matching a CSS selector anywhere in the document.
  public func select(css: String) throws(StatlineError) -> [Node] {
    try select(xpath: xpath(forCSS: css))
  }

  public func first(xpath: String) throws(StatlineError) -> Node? { try select(xpath: xpath).first }

  public func first(css: String) throws(StatlineError) -> Node? { try select(css: css).first }

  /// The string value of an XPath expression (`string(...)`, `count(...)`, a path).
  public func string(xpath: String) throws(StatlineError) -> String {
    try string(xpath, at: documentNode)
  }

  // MARK: Internals shared with Node

  func xpath(forCSS css: String) throws(StatlineError) -> String {
    if let cached = cssCache[css] { return cached }
    let translated = try CSSSelector.xpath(for: css, lowercaseTypes: kind == .html)
    cssCache[css] = translated
    return translated
  }

  /// Evaluates `expression` with `node` as the context node and hands the result to `body`
  /// while it is still alive.
  func evaluate<T>(
    _ expression: String, at node: xmlNodePtr, _ body: (xmlXPathObjectPtr) -> T
  ) throws(StatlineError) -> T {
    LibXML.prepareThread()
    if !ordered {
      // Numbers the elements in document order (libxml2 keeps it in each element's unused
      // `content`), so sorting a query's result compares two numbers instead of walking both
      // nodes' ancestors: on tag soup nested hundreds deep that walk made sorting the slowest
      // part. Done before the first query, not at parse: a parser that walks the tree
      // (`Node.children(named:)`) and asks no XPath does not pay for a pass over every element.
      xmlXPathOrderDocElems(pointer)
      ordered = true
    }
    let context: xmlXPathContextPtr
    if let existing = xpathContext {
      context = existing
    } else {
      guard let created = xmlXPathNewContext(pointer) else {
        throw StatlineError(.io, "libxml2 could not allocate an XPath context")
      }
      created.pointee.error = statline_ignoreStructuredError
      // libxml2 counts the steps of every query on this context and stops one that runs past.
      created.pointee.opLimit = UInt(limits.maximumQuerySteps)
      xpathContext = created
      context = created
    }
    context.pointee.node = node
    func invalid() -> StatlineError {
      StatlineError(
        .configuration, "invalid XPath expression '\(expression)'", hint: "check the expression's syntax (XPath 1.0)")
    }
    let program: xmlXPathCompExprPtr
    if let known = compiled[expression] {
      program = known
    } else {
      guard let made = xmlXPathCtxtCompile(context, expression) else { throw invalid() }
      compiled[expression] = made
      program = made
    }
    guard let result = xmlXPathCompiledEval(program, context) else {
      // (An opLimit of 0 is libxml2's "no limit": then a failure is the expression's.)
      if context.pointee.opLimit != 0, context.pointee.opCount >= context.pointee.opLimit {
        throw limits.queryStepRefusal(url: url)
      }
      throw invalid()
    }
    defer { xmlXPathFreeObject(result) }
    return body(result)
  }

  func nodes(_ expression: String, at node: xmlNodePtr) throws(StatlineError) -> [Node] {
    try evaluate(expression, at: node) { result in
      guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return [] }
      let count = Int(set.pointee.nodeNr)
      var nodes: [Node] = []
      nodes.reserveCapacity(count)
      for index in 0..<count {
        if let item = set.pointee.nodeTab[index] { nodes.append(Node(document: self, pointer: item)) }
      }
      return nodes
    }
  }

  func string(_ expression: String, at node: xmlNodePtr) throws(StatlineError) -> String {
    try evaluate(expression, at: node) { LibXML.consume(xmlXPathCastToString($0)) ?? "" }
  }

  /// The document node, as a node pointer (the context for absolute queries).
  var documentNode: xmlNodePtr {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: xmlNode.self)
  }
}
