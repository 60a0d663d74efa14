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
