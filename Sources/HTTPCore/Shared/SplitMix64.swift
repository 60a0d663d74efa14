/// SplitMix64: a small, fast, deterministic generator (not for secrets). The one petkit uses
/// for delays, fault bytes and generated values: seeded from a number, or from a text (an
/// operation's name) so that the same request always gets the same generated body.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Seeds from a number.
    package init(seed: UInt64) {
        state = seed
    }

    /// Seeds from a text (FNV-1a of its bytes).
    package init(seed text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        state = hash
    }

    /// Seeds from a text and a number: a dynamic answer's seed, for one response of one operation.
    package init(seed text: String, number: UInt64) {
        self.init(seed: text)
        state ^= number &* 0x9e37_79b9_7f4a_7c15
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var value = state
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        return value ^ (value >> 31)
    }
}
