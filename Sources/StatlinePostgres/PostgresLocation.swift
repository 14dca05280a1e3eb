import Foundation
import StatlineCore

/// Where a PostgreSQL store is: `postgres://user[:password]@host[:port]/database[?sslmode=…&schema=…]`.
///
/// The password comes from the URL or, when the URL has none, from `PGPASSWORD`; it is never
/// part of `description`, which is what logs and errors show.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
  public enum TLSMode: String, Sendable {
    /// Plain TCP (loopback, a private network).
    case disable
    /// TLS when the server offers it (libpq's default).
    case prefer
    /// TLS or no connection.
    case require
  }

  public var host: String
  public var port: Int
  public var user: String
  public var password: String?
  public var database: String
  public var tls: TLSMode
  /// The schema the store's tables live in (`public` unless the URL says `?schema=`).
  public var schema: String

  public init(
    host: String, port: Int = 5432, user: String, password: String?, database: String, tls: TLSMode = .prefer,
    schema: String = "public"
  ) {
    self.host = host
    self.port = port
    self.user = user
    self.password = password
    self.database = database
    self.tls = tls
    self.schema = schema
  }

  /// True when `--store` (or `store:`) names a PostgreSQL server rather than a SQLite file.
  public static func isURL(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// Reads a `postgres://` URL; `environment` supplies `PGPASSWORD` (and `PGUSER`) when the URL
  /// leaves them out.
  public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(StatlineError)
  {
    let shown = WebAddress.shown(text)
    guard Self.isURL(text), let components = URLComponents(string: text), let host = components.host, !host.isEmpty
    else {
      throw StatlineError(
        .configuration, "not a PostgreSQL URL", location: shown,
        hint: "write it as postgres://user@host:5432/database (the password in PGPASSWORD)")
    }
    // URLComponents reads any number as the port; a client given one above 65535 would
    // connect to it modulo 65536.
    if let portText = WebAddress.portText(ofAuthority: WebAddress.authority(of: text)) {
      guard let port = Int(portText), (1...65535).contains(port), portText.count <= 5 else {
        throw StatlineError(
          .configuration, "the port '\(portText.prefix(20))' is not a number from 1 to 65535", location: shown,
          hint: "write it as postgres://user@host:5432/database")
      }
    }
    let database = String(components.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else {
      throw StatlineError(
        .configuration, "the URL names no database", location: shown,
        hint: "end it with the database: postgres://user@host:5432/statline")
    }
    guard let user = components.user ?? environment["PGUSER"], !user.isEmpty else {
      throw StatlineError(
        .configuration, "the URL names no user", location: shown, hint: "write postgres://USER@host/database")
    }
    var tls = TLSMode.prefer
    var schema = "public"
    for item in components.queryItems ?? [] {
      switch item.name {
      case "sslmode":
        switch item.value {
        case "disable": tls = .disable
        case "allow", "prefer": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        default:
          throw StatlineError(
            .configuration, "sslmode \(item.value ?? "") is not one Statline knows", location: shown,
            hint: "use sslmode=disable, prefer or require")
        }
      case "schema":
        guard let value = item.value, Self.isIdentifier(value) else {
          throw StatlineError(
            .configuration, "schema \(item.value ?? "") is not a plain identifier", location: shown,
            hint: "use letters, digits and _ (starting with a letter or _)")
        }
        schema = value
      default:
        throw StatlineError(
          .configuration, "unknown URL parameter \(item.name)", location: shown,
          hint: "Statline reads sslmode and schema")
      }
    }
    self.init(
      host: host, port: components.port ?? 5432, user: user,
      password: components.password ?? environment["PGPASSWORD"], database: database, tls: tls, schema: schema)
  }

  /// The URL without its password.
  public var description: String {
    var text = "postgres://\(user)@\(host):\(port)/\(database)"
    var query: [String] = []
    if tls != .prefer { query.append("sslmode=\(tls.rawValue)") }
    if schema != "public" { query.append("schema=\(schema)") }
    if !query.isEmpty { text += "?" + query.joined(separator: "&") }
    return text
  }

  /// A URL as it may be shown: any password replaced.
  public static func redacted(_ text: String) -> String { WebAddress.redacted(text) }

  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) else { return false }
    return text.count <= 63
      && text.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
  }
}
