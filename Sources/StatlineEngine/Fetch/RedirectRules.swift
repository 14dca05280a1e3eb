import StatlineCore

/// Where a poll's redirect may go (architecture.md#a-poll, politeness). Statline follows redirects itself,
/// never in the HTTP client, so that each hop is checked before any client sees it:
/// - the `Location` must be an http(s) address with a port from 1 to 65535 (relative and
///   protocol-relative forms are resolved against the hop before);
/// - it stays on the target's site (the same registrable host: `stats.ncaa.org` may send to
///   `www.ncaa.org`), unless the source allows the host (`sources.NAME.redirectHosts`);
/// - it never goes to a loopback, private or link-local address unless the target's own
///   address is of that same kind (a lab or a test), whatever the source allows;
/// - at most `maximumHops` hops, and no address twice (a loop).
/// Each new host's robots.txt is asked and its politeness applies, as for any request.
public struct RedirectRules: Sendable, Equatable {
  public var maximumHops = 5

  /// The statuses that redirect; 304 and 300 do not.
  public static let statuses: Set<Int> = [301, 302, 303, 307, 308]

  public init(maximumHops: Int = 5) { self.maximumHops = maximumHops }

  /// The next hop after `page` (a redirect answered for `current`), or the reason there is none.
  public func next(
    after page: Page, from current: WebAddress, target: WebAddress, allowedHosts: Set<String>, visited: [String]
  ) throws(StatlineError) -> WebAddress {
    let next = try current.resolving(page.header("location") ?? "")
    func refuse(_ reason: String, hint: String? = nil) -> StatlineError {
      StatlineError(
        .network, reason, location: target.url, context: "redirect to \(WebAddress.shown(next.url))", hint: hint)
    }
    guard visited.count <= maximumHops else {
      throw refuse(
        "too many redirects (more than \(maximumHops))", hint: "raise http.maxRedirects if the site needs more")
    }
    guard !visited.contains(next.url) else { throw refuse("a redirect loop") }
    guard next.reach == .public || next.reach == target.reach else {
      throw refuse(
        "the redirect goes to a \(next.reach.rawValue) address (\(next.host)), which a \(target.reach.rawValue) target may not reach",
        hint: "point the target at the address itself if it is really meant")
    }
    guard next.site == target.site || allowedHosts.contains(next.host) || allowedHosts.contains(next.site) else {
      throw refuse(
        "the redirect leaves the site \(target.site) for \(next.host)",
        hint: "list the host under sources.<source>.redirectHosts if the site really moved there")
    }
    return next
  }
}
