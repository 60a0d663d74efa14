import COpenSSL
import HTTPServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes keys and certificates with OpenSSL and moves them to and from PEM: what the local
/// certificate authority needs, nothing more.
enum X509Issuer {
    /// A new EC P-256 key.
    static func makeKey() throws(TLSSetupError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw failure() }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &key) == 1, let key
        else { throw failure() }
        return key
    }

    /// What to put in a certificate.
    struct Request {
        var commonName: String
        var days: Int
        var isAuthority: Bool
        /// `subjectAltName`'s value in OpenSSL's configuration syntax (`DNS:localhost,IP:::1`).
        var alternativeNames: String?
    }

    /// A certificate for `key`, signed by `issuer` (the certificate and its key), or by itself.
    static func issue(
        _ request: Request, key: OpaquePointer, issuer: (certificate: OpaquePointer, key: OpaquePointer)?, now: Int
    ) throws(TLSSetupError) -> OpaquePointer {
        guard let certificate = X509_new() else { throw failure() }
        do {
            try fill(certificate, request, key: key, issuer: issuer, now: now)
            return certificate
        } catch {
            X509_free(certificate)
            throw error
        }
    }

    private static func fill(
        _ certificate: OpaquePointer, _ request: Request, key: OpaquePointer,
        issuer: (certificate: OpaquePointer, key: OpaquePointer)?, now: Int
    ) throws(TLSSetupError) {
        var serial: UInt64 = 0
        arc4random_buf(&serial, MemoryLayout<UInt64>.size)
        guard X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), Int(serial >> 2)) == 1
        else { throw failure() }
        var start = time_t(now)
        // An hour back, for a simulator or device whose clock is a little behind.
        guard X509_time_adj_ex(X509_getm_notBefore(certificate), 0, -3600, &start) != nil,
            X509_time_adj_ex(X509_getm_notAfter(certificate), Int32(request.days), 0, &start) != nil
        else { throw failure() }
        guard let name = X509_get_subject_name(certificate) else { throw failure() }
        let added = Array(request.commonName.utf8).withUnsafeBufferPointer {
            X509_NAME_add_entry_by_txt(name, "CN", petkit_mbstring_asc(), $0.baseAddress, Int32($0.count), -1, 0)
        }
        guard added == 1, X509_set_pubkey(certificate, key) == 1 else { throw failure() }
        let issuerCertificate = issuer?.certificate ?? certificate
        guard X509_set_issuer_name(certificate, X509_get_subject_name(issuerCertificate)) == 1 else {
            throw failure()
        }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerCertificate, certificate, nil, nil, 0)
        var extensions: [(Int32, String)] = [(NID_subject_key_identifier, "hash")]
        if request.isAuthority {
            extensions += [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"),
            ]
        } else {
            extensions += [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_authority_key_identifier, "keyid:always"),
            ]
        }
        if let names = request.alternativeNames { extensions.append((NID_subject_alt_name, names)) }
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else { throw failure() }
            let result = X509_add_ext(certificate, made, -1)
            X509_EXTENSION_free(made)
            guard result == 1 else { throw failure() }
        }
        guard X509_sign(certificate, issuer?.key ?? key, EVP_sha256()) > 0 else { throw failure() }
    }

    static func pem(of certificate: OpaquePointer) throws(TLSSetupError) -> [UInt8] {
        try withMemoryBIO { bio in PEM_write_bio_X509(bio, certificate) == 1 }
    }

    static func pem(ofKey key: OpaquePointer) throws(TLSSetupError) -> [UInt8] {
        try withMemoryBIO { bio in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 }
    }

    /// The first certificate in PEM bytes, or nil.
    static func certificate(fromPEM bytes: [UInt8]) -> OpaquePointer? {
        readPEM(bytes) { PEM_read_bio_X509($0, nil, nil, nil) }
    }

    /// The private key in PEM bytes, or nil.
    static func key(fromPEM bytes: [UInt8]) -> OpaquePointer? {
        readPEM(bytes) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
    }

    private static func readPEM(_ bytes: [UInt8], _ read: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        defer { ERR_clear_error() }
        return bytes.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }

    /// What `write` put into a memory BIO.
    static func withMemoryBIO(_ write: (OpaquePointer) -> Bool) throws(TLSSetupError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure() }
        defer { BIO_free(bio) }
        guard write(bio) else { throw failure() }
        var data: UnsafeMutablePointer<CChar>?
        let count = petkit_bio_mem_data(bio, &data)
        guard count > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: count) {
            Array(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    private static func failure() -> TLSSetupError {
        .openSSL(TLSSetupError.drainedErrors())
    }
}
