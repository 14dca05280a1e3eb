import Hummingbird

/// Routes the server mounts beside the read API, under a path of their own, each group on a
/// Hummingbird router with its own middleware (authentication, rate limits, body limits).
///
/// The read API is the server's one read-only group: it answers every request that no other
/// group owns, over its read-only store handle, and its answer caches (`ResponseCache`,
/// `HotAnswers`) never see another group's requests. A group owns its path and everything below
/// it (`/v1/devices` owns `/v1/devices/abc`, not `/v1/devicesx`); a request under no group's path
/// is the read API's, whatever its method (it answers 405 to a write).
public protocol RouteGroup: Sendable {
  /// The path the group owns, without a trailing slash (`/v1/devices`).
  var path: String { get }

  /// Adds the group's middleware and routes to a router of its own.
  func addRoutes(to router: Router<ConnectionContext>)
}

/// The groups of a server, their routers built once, found by a request's path.
struct MountedGroups: Sendable {
  let groups: [(path: String, responder: RouterResponder<ConnectionContext>)]

  init(_ groups: [any RouteGroup]) {
    self.groups = groups.map { group in
      let router = Router(context: ConnectionContext.self)
      group.addRoutes(to: router)
      return (group.path, router.buildResponder())
    }
  }

  /// The group that owns `path`, if one does.
  func owner(of path: String) -> (path: String, responder: RouterResponder<ConnectionContext>)? {
    groups.first { Self.owns($0.path, path) }
  }

  /// Whether a group at `prefix` owns `path`: the path itself, or one below it.
  static func owns(_ prefix: String, _ path: Substring) -> Bool {
    guard path.hasPrefix(prefix) else { return false }
    let rest = path.dropFirst(prefix.count)
    return rest.isEmpty || rest.first == "/"
  }

  static func owns(_ prefix: String, _ path: String) -> Bool { owns(prefix, path[...]) }
}

extension RouteGroup {
  /// Whether the group owns a request's path: its own, or one below it.
  public func owns(_ requestPath: String) -> Bool { MountedGroups.owns(path, requestPath) }
}
