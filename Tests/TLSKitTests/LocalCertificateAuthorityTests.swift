import Foundation
import HTTPHandlerKit
import HTTPServerKit
import TLSKit
import TestSupport
import Testing

/// The local CA and the server certificate it issues, read back as values.
@Suite struct LocalCertificateAuthorityTests {
    static let day = 86_400

    @Test func firstUseMakesTheAuthorityAndAServerCertificateApplePlatformsAccept() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(directory: folder.file("ca"))
        let tls = try authority.serverTLS()
        #expect(tls.certificatePath == authority.serverCertificatePath)
        #expect(tls.privateKeyPath == authority.serverKeyPath)

        let root = try CertificateSummary(pemFile: authority.certificatePath)
        #expect(root.isAuthority)
        #expect(!root.allowsServerAuthentication)
        let leaf = try CertificateSummary(pemFile: authority.serverCertificatePath)
        #expect(!leaf.isAuthority)
        #expect(leaf.allowsServerAuthentication)
        #expect(leaf.commonName == "localhost")
        #expect(leaf.alternativeNames == ["DNS:localhost", "IP Address:127.0.0.1", "IP Address:0:0:0:0:0:0:0:1"])
        #expect(leaf.validityDays <= 397)
        #expect(leaf.notAfter - leaf.notBefore > 390 * Self.day)

        for key in [authority.keyPath, authority.serverKeyPath] {
            let attributes = try FileManager.default.attributesOfItem(atPath: key)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(key)")
        }
    }

    @Test func aSecondRunReusesTheAuthorityAndTheServerCertificate() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(directory: folder.path)
        _ = try authority.serverTLS()
        let root = try Data(contentsOf: URL(fileURLWithPath: authority.certificatePath))
        let leaf = try Data(contentsOf: URL(fileURLWithPath: authority.serverCertificatePath))
        _ = try LocalCertificateAuthority(directory: folder.path).serverTLS()
        #expect(try Data(contentsOf: URL(fileURLWithPath: authority.certificatePath)) == root)
        #expect(try Data(contentsOf: URL(fileURLWithPath: authority.serverCertificatePath)) == leaf)
    }

    @Test func aServerCertificateNearItsEndIsIssuedAgainByTheSameAuthority() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(directory: folder.path)
        let start = Int(Date().timeIntervalSince1970)
        _ = try authority.serverTLS(now: start)
        let root = try Data(contentsOf: URL(fileURLWithPath: authority.certificatePath))
        let first = try CertificateSummary(pemFile: authority.serverCertificatePath)

        // 380 days on: 16 days left, inside the 30-day margin.
        let later = start + 380 * Self.day
        _ = try authority.serverTLS(now: later)
        let renewed = try CertificateSummary(pemFile: authority.serverCertificatePath)
        #expect(renewed.notAfter > first.notAfter)
        #expect(renewed.notBefore <= later && renewed.notBefore > later - Self.day)
        #expect(try Data(contentsOf: URL(fileURLWithPath: authority.certificatePath)) == root)
    }

    @Test func aServerCertificateOfAnotherAuthorityIsIssuedAgain() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let other = try TemporaryDirectory(prefix: "petkit-ca-other")
        defer { other.remove() }
        let authority = LocalCertificateAuthority(directory: folder.path)
        let stranger = LocalCertificateAuthority(directory: other.path)
        _ = try authority.serverTLS()
        _ = try stranger.serverTLS()
        let foreign = try Data(contentsOf: URL(fileURLWithPath: stranger.serverCertificatePath))
        try foreign.write(to: URL(fileURLWithPath: authority.serverCertificatePath))
        _ = try authority.serverTLS()
        #expect(try Data(contentsOf: URL(fileURLWithPath: authority.serverCertificatePath)) != foreign)
    }

    @Test(arguments: [
        ("ca.pem", "not a certificate", "expected a PEM certificate, found none"),
        ("ca-key.pem", "not a key", "expected a PEM private key, found none"),
    ])
    func aCorruptFolderIsAnErrorNamingTheFile(file: String, contents: String, reason: String) throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(directory: folder.path)
        _ = try authority.serverTLS()
        try contents.write(toFile: folder.file(file), atomically: true, encoding: .utf8)
        #expect(throws: TLSSetupError.corruptAuthority(directory: folder.path, file: file, reason: reason)) {
            try authority.serverTLS()
        }
    }

    @Test func aKeyWithoutItsCertificateIsAnError() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(directory: folder.path)
        _ = try authority.serverTLS()
        try FileManager.default.removeItem(atPath: authority.certificatePath)
        #expect(
            throws: TLSSetupError.corruptAuthority(
                directory: folder.path, file: "ca.pem", reason: "missing, beside 'ca-key.pem'")
        ) { try authority.serverTLS() }
    }

    @Test func aCertificateThatIsNotOfTheKeyIsAnError() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(directory: folder.path)
        _ = try authority.serverTLS()
        // The server certificate in the CA's place: not a CA, and not of ca-key.pem.
        let leaf = try String(contentsOfFile: authority.serverCertificatePath, encoding: .utf8)
        try leaf.write(toFile: authority.certificatePath, atomically: true, encoding: .utf8)
        #expect(throws: TLSSetupError.self) { try authority.serverTLS() }
    }

    @Test func aServerWithAKeyThatIsNotItsCertificatesDoesNotStart() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-ca")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(directory: folder.path)
        _ = try authority.serverTLS()
        var configuration = HTTPServerConfiguration(port: 0, eventLoopCount: 1)
        configuration.tls = HTTPServerTLS(
            certificatePath: authority.serverCertificatePath, privateKeyPath: authority.keyPath)
        let server = HTTPServer(configuration: configuration) { _ in .response(HTTPResponse(text: "x")) }
        #expect(throws: HTTPServerError.self) { try server.start() }
        #expect(server.port == 0)
    }
}
