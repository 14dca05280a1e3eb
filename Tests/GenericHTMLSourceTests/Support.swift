import Foundation
import GenericHTMLSource
import StatlineCore
import StatlineTesting

/// Runs a bundled example config on a page, through the whole pipeline.
func runExample(_ id: String, _ page: Page) throws -> Batch {
  let entries = try GenericHTMLSource.plugin.parsers(PluginSettings())
  guard let entry = entries.first(where: { $0.id == id }) else {
    throw StatlineError(.noParser, "no bundled config \(id)")
  }
  return try PagePipeline.run(page, with: entry)
}

func handPage(_ relative: String, url: String) throws -> Page {
  Page(url: url, body: try Data(contentsOf: PackageRoot.file("Fixtures/GenericHTML/\(relative)")))
}
