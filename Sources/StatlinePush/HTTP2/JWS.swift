import Foundation

/// The compact JWS pieces both push services' tokens are made of (APNs' ES256 provider token,
/// FCM's RS256 OAuth assertion): base64url without padding, `header.claims` as the signing input.
enum JWS {
  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// `base64url(header).base64url(claims)`, from their JSON text.
  static func signingInput(header: String, claims: String) -> String {
    base64URL(Data(header.utf8)) + "." + base64URL(Data(claims.utf8))
  }
}
