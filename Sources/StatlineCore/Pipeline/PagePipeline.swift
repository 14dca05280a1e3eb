/// parse → normalize → validate for one page: the path every page takes, in `replay`, in the
/// fixture tests and in the scrape job alike.
public enum PagePipeline {
  /// Runs `entry` on `page` and screens the batch record by record (`BatchValidator.screen`):
  /// a record that breaks a rule is left out and named in the warnings. Every failure is a
  /// `StatlineError` that names the source, the parser and the page.
  public static func run(_ page: Page, with entry: ParserEntry) throws(StatlineError) -> Batch {
    try runDiscovering(page, with: entry).batch
  }

  /// `run`, and the game targets the page asks for (from its records and from its batch).
  public static func runDiscovering(_ page: Page, with entry: ParserEntry) throws(StatlineError) -> (
    batch: Batch, discovered: [DiscoveredTarget]
  ) {
    let (screening, discovered) = try runScreened(page, with: entry)
    return (screening.batch, discovered)
  }

  /// `runDiscovering`, with the screening's refusals and unread plays as values (the poller
  /// reports a partial poll from them).
  public static func runScreened(_ page: Page, with entry: ParserEntry) throws(StatlineError) -> (
    screening: Screening, discovered: [DiscoveredTarget]
  ) {
    let locate = { (error: StatlineError) in
      error.located(source: entry.source, parser: entry.id, location: page.location)
    }
    if let refusal = entry.refusal(page) { throw locate(refusal) }
    if page.isBlank {
      throw locate(
        StatlineError(
          .emptyPage, "the page body is empty (\(page.body.count) bytes, HTTP \(page.status))",
          hint: "an empty answer is never an empty result; check the URL and fetch again"))
    }
    var batch: Batch
    var discovered: [DiscoveredTarget]
    do {
      (batch, discovered) = try entry.processDiscovering(page)
    } catch let error as StatlineError {
      throw locate(error)
    } catch {
      throw locate(StatlineError(.wrongPage, "the parser failed: \(error)"))
    }
    batch.source = entry.source
    batch.parser = entry.id
    batch.url = page.url
    let screening: Screening
    do {
      screening = try BatchValidator.screening(batch, everyPlay: entry.carriesEveryPlay)
    } catch {
      throw locate(error)
    }
    return (screening, discovered + (entry.discover?(screening.batch) ?? []))
  }
}
