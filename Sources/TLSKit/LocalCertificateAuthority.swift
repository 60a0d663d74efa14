import COpenSSL
import HTTPServerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A certificate authority of this machine's own, kept in a folder, that issues the HTTPS
/// server's certificate for `localhost`, `127.0.0.1` and `::1`. Trust its certificate once
/// (`xcrun simctl keychain booted add-root-cert ca.pem` for the booted simulator, `--cacert`
/// for curl) and every server that uses the folder is trusted.
///
/// ```swift
/// let authority = LocalCertificateAuthority(directory: LocalCertificateAuthority.defaultDirectory)
/// var configuration = HTTPServerConfiguration(port: 8443)
/// configuration.tls = try authority.serverTLS()
/// ```
///
/// The folder holds `ca.pem` and `ca-key.pem`, made on first use and kept; and `localhost.pem`
/// and `localhost-key.pem`, valid for 396 days and an hour (Apple's platforms refuse a server
/// certificate valid for more than 397 days), issued again when missing, not issued by this
/// authority, or within 30 days of the end. Keys are written with mode 0600.
public struct LocalCertificateAuthority: Sendable, Hashable {
    /// The folder.
    public var directory: String

    /// Days a server certificate is valid (plus the hour it starts early).
    public static let serverCertificateDays = 396
    /// Days the authority's own certificate is valid.
    public static let authorityDays = 3650
    /// A server certificate this close to its end is issued again.
    public static let renewalMarginDays = 30
    /// The names every server certificate is for.
    public static let serverNames = "DNS:localhost,IP:127.0.0.1,IP:::1"

    /// `~/.petmock/ca`, or `.petmock/ca` under the working folder when `HOME` is not set.
    public static var defaultDirectory: String {
        let home = PlatformEnvironment.value("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? "."
        return FileSystem.join(FileSystem.join(home, ".petmock"), "ca")
    }

    /// Uses the folder `directory`; nothing is read or made until ``serverTLS(now:)``.
    public init(directory: String) {
        self.directory = directory
    }

    /// The authority's certificate, the file to trust.
    public var certificatePath: String { FileSystem.join(directory, "ca.pem") }
    /// The authority's private key.
    public var keyPath: String { FileSystem.join(directory, "ca-key.pem") }
    /// The server certificate.
    public var serverCertificatePath: String { FileSystem.join(directory, "localhost.pem") }
    /// The server certificate's private key.
    public var serverKeyPath: String { FileSystem.join(directory, "localhost-key.pem") }

    /// The command that makes the booted iOS simulator trust the authority.
    public var simulatorTrustCommand: String {
        "xcrun simctl keychain booted add-root-cert '\(certificatePath)'"
    }

    /// Makes the authority if the folder has none, issues the server certificate if it must,
    /// and returns the server's TLS settings. `now` is in seconds since 1970.
    public func serverTLS(now: Int = Int(time(nil))) throws(TLSSetupError) -> HTTPServerTLS {
        let (authority, authorityKey) = try loadOrMakeAuthority(now: now)
        defer {
            X509_free(authority)
            EVP_PKEY_free(authorityKey)
        }
        if try !serverCertificateIsCurrent(authorityKey: authorityKey, now: now) {
            let key = try X509Issuer.makeKey()
            defer { EVP_PKEY_free(key) }
            let request = X509Issuer.Request(
                commonName: "localhost", days: Self.serverCertificateDays, isAuthority: false,
                alternativeNames: Self.serverNames)
            let certificate = try X509Issuer.issue(request, key: key, issuer: (authority, authorityKey), now: now)
            defer { X509_free(certificate) }
            try write(X509Issuer.pem(ofKey: key), to: serverKeyPath, permissions: 0o600)
            // The chain the server sends: its certificate, then the authority's.
            try write(X509Issuer.pem(of: certificate) + X509Issuer.pem(of: authority), to: serverCertificatePath)
        }
        return HTTPServerTLS(certificatePath: serverCertificatePath, privateKeyPath: serverKeyPath)
    }

    /// Reads the authority, or makes one when the folder holds neither of its files.
    private func loadOrMakeAuthority(now: Int) throws(TLSSetupError) -> (OpaquePointer, OpaquePointer) {
        let hasCertificate = FileSystem.kind(of: certificatePath) != nil
        let hasKey = FileSystem.kind(of: keyPath) != nil
        if !hasCertificate && !hasKey {
            do {
                try FileSystem.createDirectory(directory)
            } catch {
                throw TLSSetupError.cannotWrite(path: directory, reason: error.reason)
            }
            let key = try X509Issuer.makeKey()
            let request = X509Issuer.Request(
                commonName: "petkit local CA", days: Self.authorityDays, isAuthority: true, alternativeNames: nil)
            do throws(TLSSetupError) {
                let certificate = try X509Issuer.issue(request, key: key, issuer: nil, now: now)
                do throws(TLSSetupError) {
                    try write(X509Issuer.pem(ofKey: key), to: keyPath, permissions: 0o600)
                    try write(X509Issuer.pem(of: certificate), to: certificatePath)
                } catch {
                    X509_free(certificate)
                    throw error
                }
                return (certificate, key)
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
        }
        guard hasCertificate else { throw corrupt("ca.pem", "missing, beside 'ca-key.pem'") }
        guard hasKey else { throw corrupt("ca-key.pem", "missing, beside 'ca.pem'") }
        guard let certificate = X509Issuer.certificate(fromPEM: try contents(of: certificatePath)) else {
            throw corrupt("ca.pem", "expected a PEM certificate, found none")
        }
        guard let key = X509Issuer.key(fromPEM: try contents(of: keyPath)) else {
            X509_free(certificate)
            throw corrupt("ca-key.pem", "expected a PEM private key, found none")
        }
        let problem: String? =
            if petkit_is_ca(certificate) != 1 {
                "expected a CA certificate (basicConstraints CA:TRUE), found one that is not"
            } else if X509_check_private_key(certificate, key) != 1 {
                "the certificate does not match 'ca-key.pem'"
            } else {
                nil
            }
        ERR_clear_error()
        if let problem {
            X509_free(certificate)
            EVP_PKEY_free(key)
            throw corrupt("ca.pem", problem)
        }
        return (certificate, key)
    }

    /// Whether the server certificate and key on disk can be used as they are.
    private func serverCertificateIsCurrent(authorityKey: OpaquePointer, now: Int) throws(TLSSetupError) -> Bool {
        guard FileSystem.kind(of: serverCertificatePath) != nil, FileSystem.kind(of: serverKeyPath) != nil,
            let certificate = X509Issuer.certificate(fromPEM: try contents(of: serverCertificatePath))
        else { return false }
        defer { X509_free(certificate) }
        guard let key = X509Issuer.key(fromPEM: try contents(of: serverKeyPath)) else { return false }
        defer { EVP_PKEY_free(key) }
        defer { ERR_clear_error() }
        guard X509_verify(certificate, authorityKey) == 1, X509_check_private_key(certificate, key) == 1 else {
            return false
        }
        let summary = CertificateSummary(certificate)
        return summary.notBefore <= now && summary.notAfter - now > Self.renewalMarginDays * 86_400
    }

    private func contents(of path: String) throws(TLSSetupError) -> [UInt8] {
        do {
            return try FileSystem.read(path, atMost: 1 << 20)
        } catch {
            throw corrupt(FileSystem.lastComponent(of: path), error.reason)
        }
    }

    private func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(TLSSetupError) {
        do {
            try FileSystem.writeAtomically(bytes, to: path, permissions: permissions)
        } catch {
            throw TLSSetupError.cannotWrite(path: path, reason: error.reason)
        }
    }

    private func corrupt(_ file: String, _ reason: String) -> TLSSetupError {
        .corruptAuthority(directory: directory, file: file, reason: reason)
    }
}
