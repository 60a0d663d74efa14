import HTTPServerKit

/// Where an HTTPS server finds its certificate chain and private key (PEM files).
///
/// ```swift
/// var configuration = HTTPServerConfiguration(port: 8443)
/// configuration.tls = HTTPServerTLS(certificatePath: "leaf.pem", privateKeyPath: "leaf-key.pem")
/// ```
public struct HTTPServerTLS: Sendable, Hashable {
    /// The PEM certificate chain, the server's certificate first.
    public var certificatePath: String
    /// The PEM private key of the server's certificate.
    public var privateKeyPath: String

    /// Creates the settings.
    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }
}

extension HTTPServerConfiguration {
    /// Serve HTTPS with this certificate and key; nil (the default) serves plain HTTP. The
    /// server loads them into one OpenSSL context when it starts, before binding; the TLS
    /// handshake counts as the start of a request head (``headerTimeout`` bounds it).
    public var tls: HTTPServerTLS? {
        get { connectionSecurity?.settings as? HTTPServerTLS }
        set {
            connectionSecurity = newValue.map { settings in
                ConnectionSecurity(settings: settings) { () throws(TLSSetupError) in try TLSContext(settings) }
            }
        }
    }
}
