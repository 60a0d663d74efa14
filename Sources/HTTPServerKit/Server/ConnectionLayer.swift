/// What a connection reads and writes through instead of its socket (a TLS session): `read`
/// and `write` answer as `read(2)` and `send(2)` do (a count, 0 at the end, or -1 with `errno`,
/// `EAGAIN` when the layer waits for the socket), so the parser and the outbound queue are the
/// plain connection's. Confined to the connection's loop. A plain connection has none and pays
/// one nil test per read and write.
package protocol ConnectionLayer: AnyObject {
    /// Whether the layer's own exchange (a handshake) is done: until then the connection is
    /// receiving the start of a request head, under the header timeout.
    var isEstablished: Bool { get }
    /// Reads decoded bytes into `target`.
    func read(_ target: UnsafeMutableRawPointer?, _ count: Int) -> Int
    /// Encodes and sends bytes; a count below `count` is a short write.
    func write(_ source: UnsafeRawPointer?, _ count: Int) -> Int
    /// Says goodbye (TLS's close_notify) before the socket's write side is shut.
    func close()
}

/// Makes each connection's ``ConnectionLayer``: one per server, shared by its loops.
package protocol ConnectionLayerFactory: Sendable {
    /// The layer over the accepted socket `descriptor`, or nil when none can be made.
    func layer(over descriptor: Int32) -> (any ConnectionLayer)?
}

/// The settings a server makes its ``ConnectionLayerFactory`` from when it starts (an HTTPS
/// certificate and key: TLSKit's `HTTPServerTLS`), before binding, so that settings that
/// cannot be used leave the port free. HTTPServerKit knows no TLS library: the module that
/// does supplies this value, and only the servers that serve HTTPS link it.
package struct ConnectionSecurity: Sendable, Hashable {
    /// What the layers are made from, which says whether two values are the same.
    package let settings: any Hashable & Sendable
    private let make: @Sendable () throws(TLSSetupError) -> any ConnectionLayerFactory

    /// Settings and how to make the factory from them.
    package init(
        settings: some Hashable & Sendable,
        make: @escaping @Sendable () throws(TLSSetupError) -> any ConnectionLayerFactory
    ) {
        self.settings = settings
        self.make = make
    }

    /// Makes the factory (loading files, say).
    package func makeFactory() throws(TLSSetupError) -> any ConnectionLayerFactory {
        try make()
    }

    package static func == (lhs: ConnectionSecurity, rhs: ConnectionSecurity) -> Bool {
        AnyHashable(lhs.settings) == AnyHashable(rhs.settings)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(settings))
    }
}
