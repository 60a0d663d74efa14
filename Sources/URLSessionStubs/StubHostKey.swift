/// A host's index as a type: a binary number built at run time, bit by bit, so that each host
/// has a `URLProtocol` class of its own (``HostURLProtocol``), whose type alone names the host.
///
/// `StubHostKeyRoot` is 0 and `StubHostKeyBit0<Rest>` / `StubHostKeyBit1<Rest>` append a bit
/// to `Rest`; a number is built from its highest set bit down, so no number has two spellings
/// (`Bit0<Root>` is never made). 5 is `Bit1<Bit0<Bit1<Root>>>`.
protocol StubHostKey {
    /// The number this type spells.
    static var index: Int { get }
}

/// 0, and the end of every longer number.
enum StubHostKeyRoot: StubHostKey {
    static var index: Int { 0 }
}

/// `Rest` followed by a 0 bit.
enum StubHostKeyBit0<Rest: StubHostKey>: StubHostKey {
    static var index: Int { Rest.index &* 2 }
}

/// `Rest` followed by a 1 bit.
enum StubHostKeyBit1<Rest: StubHostKey>: StubHostKey {
    static var index: Int { Rest.index &* 2 &+ 1 }
}

extension StubHostKeyRoot {
    /// The key type spelling `index` (not negative).
    static func key(for index: Int) -> any StubHostKey.Type {
        precondition(index >= 0, "a host's index is not negative")
        var key: any StubHostKey.Type = StubHostKeyRoot.self
        guard index > 0 else { return key }
        let highest = Int.bitWidth - 1 - index.leadingZeroBitCount
        for shift in stride(from: highest, through: 0, by: -1) {
            // Opens the existential: `Rest` is the key built so far.
            key = appending(bit: (index >> shift) & 1 == 1, to: key)
        }
        return key
    }

    private static func appending<Rest: StubHostKey>(bit: Bool, to _: Rest.Type) -> any StubHostKey.Type {
        bit ? StubHostKeyBit1<Rest>.self : StubHostKeyBit0<Rest>.self
    }

    /// The URLProtocol class of the host with this index.
    static func protocolClass(for index: Int) -> StubURLProtocol.Type {
        protocolClass(key: key(for: index))
    }

    private static func protocolClass<Key: StubHostKey>(key _: Key.Type) -> StubURLProtocol.Type {
        HostURLProtocol<Key>.self
    }
}
