import COpenSSL
import HTTPServerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a certificate says, as values: who it names, for how long, and what it may do.
package struct CertificateSummary: Sendable, Hashable {
    /// The subject's common name.
    package var commonName: String
    /// The start and end of validity, in seconds since 1970.
    package var notBefore: Int
    package var notAfter: Int
    /// Whether `basicConstraints` says CA:TRUE.
    package var isAuthority: Bool
    /// Whether `extendedKeyUsage` allows TLS server authentication.
    package var allowsServerAuthentication: Bool
    /// The subject alternative names as OpenSSL prints them (`DNS:localhost`, `IP Address:127.0.0.1`).
    package var alternativeNames: [String]

    /// How long the certificate is valid, in whole days (rounded down).
    package var validityDays: Int { (notAfter - notBefore) / 86_400 }

    /// Reads the first certificate of a PEM file.
    package init(pemFile path: String) throws(TLSSetupError) {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, atMost: 1 << 20)
        } catch {
            throw TLSSetupError.unusableFile(path: path, reason: error.reason)
        }
        guard let certificate = X509Issuer.certificate(fromPEM: bytes) else {
            throw TLSSetupError.unusableFile(path: path, reason: "expected a PEM certificate, found none")
        }
        defer { X509_free(certificate) }
        self.init(certificate)
    }

    init(_ certificate: OpaquePointer) {
        var name = [CChar](repeating: 0, count: 256)
        let length = X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, &name, 256)
        commonName =
            length > 0 ? String(decoding: name.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        notBefore = Self.seconds(X509_get0_notBefore(certificate))
        notAfter = Self.seconds(X509_get0_notAfter(certificate))
        isAuthority = petkit_is_ca(certificate) == 1
        allowsServerAuthentication = petkit_is_server_auth(certificate) == 1
        let index = X509_get_ext_by_NID(certificate, NID_subject_alt_name, -1)
        if index >= 0, let ext = X509_get_ext(certificate, index),
            let text = try? X509Issuer.withMemoryBIO({ X509V3_EXT_print($0, ext, 0, 0) == 1 })
        {
            alternativeNames = String(decoding: text, as: UTF8.self).split(separator: ",").map {
                $0.trimmingSpaces()
            }
        } else {
            alternativeNames = []
        }
        ERR_clear_error()
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return 0 }
        return Int(timegm(&parts))
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
    }
}
