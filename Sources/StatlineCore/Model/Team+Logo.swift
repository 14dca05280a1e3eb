extension Team {
  /// The logo URL a page's image source names, as `Team.logoURL` keeps it: absolute http(s),
  /// resolved against the page's URL when relative; nil for anything else (`data:`, an empty
  /// source, a relative source on a page whose URL is unknown).
  public static func logoURL(_ source: String?, page: String?) -> String? {
    guard let source = source?.trimmingCharacters(in: .whitespaces), !source.isEmpty else { return nil }
    if let absolute = try? WebAddress(source) { return absolute.url }
    guard let page, let base = try? WebAddress(page), let resolved = try? base.resolving(source) else { return nil }
    return resolved.url
  }
}
