import StubFormat

extension Identifiers {
    /// A UUID that depends only on `bytes`: the same request recorded again gets the same id,
    /// so a refreshed recording changes only what the API changed. Two FNV-1a 64-bit hashes
    /// (different offset bases) make the 128 bits; this is for stable names, not security.
    static func stableUUID(of bytes: [UInt8]) -> String {
        uuid(high: fnv1a(bytes, basis: 0xcbf2_9ce4_8422_2325), low: fnv1a(bytes, basis: 0x84222325_cbf29ce4))
    }

    private static func fnv1a(_ bytes: [UInt8], basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
