import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority and a server certificate for 127.0.0.1 and localhost, made when a
/// test starts (nothing is committed): a loopback TLS server presents `chain` with `key`, and
/// its client trusts `authority` alone.
public struct LoopbackCertificates: Sendable {
  public let authority: NIOSSLCertificate
  public let chain: [NIOSSLCertificate]
  public let key: NIOSSLPrivateKey
  /// The authority as PEM, for a client configured by file.
  public let authorityPEM: String

  public init() throws {
    let now = Date()
    let authorityKey = P256.Signing.PrivateKey()
    let authorityName = try DistinguishedName {
      CommonName("Statline loopback test authority \(UUID().uuidString.prefix(8))")
    }
    let authority = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(authorityKey.publicKey),
      notValidBefore: now - 3600, notValidAfter: now + 7 * 86400, issuer: authorityName, subject: authorityName,
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
      }, issuerPrivateKey: .init(authorityKey))
    let serverKey = P256.Signing.PrivateKey()
    let server = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(serverKey.publicKey),
      notValidBefore: now - 3600, notValidAfter: now + 7 * 86400, issuer: authorityName,
      subject: try DistinguishedName { CommonName("127.0.0.1") }, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")])
      }, issuerPrivateKey: .init(authorityKey))
    func der(_ certificate: Certificate) throws -> [UInt8] {
      var serializer = DER.Serializer()
      try serializer.serialize(certificate)
      return serializer.serializedBytes
    }
    self.authority = try NIOSSLCertificate(bytes: try der(authority), format: .der)
    self.chain = [try NIOSSLCertificate(bytes: try der(server), format: .der)]
    self.key = try NIOSSLPrivateKey(bytes: Array(serverKey.derRepresentation), format: .der)
    self.authorityPEM = try authority.serializeAsPEM().pemString
  }
}
