import Foundation

/// The OpenAPI 3.1 document of the read API (`openapi.json` beside this file), served at
/// `/openapi.json`. `OpenAPITests` checks every route's real answers against it, so it stays
/// true: objects allow no other properties, so a field added to an answer must be added here.
enum OpenAPIDocument {
  static let bytes: [UInt8] = {
    guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
      let data = try? Data(contentsOf: url)
    else { return Array(#"{"openapi":"3.1.0","info":{"title":"missing","version":"0"},"paths":{}}"#.utf8) }
    return Array(data)
  }()
}
