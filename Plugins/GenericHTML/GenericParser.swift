import StatlineCore
import StatlineHTML

/// Reads a page with a `GenericConfig`: page fields once, then each section's fields per row.
public struct GenericParser: PageParser {
  public let config: GenericConfig

  public init(config: GenericConfig) { self.config = config }

  public func parse(_ page: Page) throws -> GenericRecords {
    if config.requireComplete && !Document.endsHTMLPage(page.body) {
      throw StatlineError(
        .truncated, "the page does not end with </html> (\(page.body.count) bytes): it was cut off",
        hint: "fetch it again; if the site serves fragments, set match.complete: false in the config")
    }
    let document = try Document.html(page.body, url: page.url)
    guard let root = document.root else {
      throw StatlineError(.wrongPage, "the page has no root element")
    }
    let missing = PageText.missing(config.contains, in: page)
    if !missing.isEmpty {
      throw StatlineError(
        .wrongPage,
        "the page lacks \(missing.map { "'\($0)'" }.joined(separator: ", ")), so it is not a page this config reads",
        hint: "check the URL, or whether the site now serves a challenge or a different layout")
    }
    let pageOnly = FieldEvaluator(url: page.url, page: [:])
    let pageValues = try pageOnly.evaluate(config.pageFields, at: root, context: "page")
    let evaluator = FieldEvaluator(url: page.url, page: pageValues.values)
    return GenericRecords(
      page: pageValues,
      games: try rows(config.games, name: "games", root: root, evaluator: evaluator),
      teams: try rows(config.teams, name: "teams", root: root, evaluator: evaluator))
  }

  private func rows(_ section: RecordSection?, name: String, root: Node, evaluator: FieldEvaluator) throws
    -> [RowValues]
  {
    guard let section else { return [] }
    let nodes: [Node]
    switch section.rows {
    case nil: nodes = [root]
    case .css(let css)?: nodes = try root.document.select(css: css)
    case .xpath(let xpath)?: nodes = try root.document.select(xpath: xpath)
    }
    if nodes.isEmpty {
      throw StatlineError(
        .wrongPage, "the row selector of '\(name)' matched nothing",
        hint: "the page layout may have changed; an empty page is never an empty result")
    }
    var result: [RowValues] = []
    for (index, node) in nodes.enumerated() {
      result.append(try evaluator.evaluate(section.fields, at: node, context: "\(name) row \(index + 1)"))
    }
    return result
  }
}
