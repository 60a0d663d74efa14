/// Text searched as the parsers under test read it, by bytes: as Swift's `Character`s, an
/// ASCII mark followed by a combining mark (`#` then U+05A3) is another grapheme, and
/// `String.contains` or `hasPrefix` would not see the `#` a parser sees.
public enum ScalarText {
    /// Whether `text` holds `part`, byte for byte.
    public static func contains(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8)
        let needle = Array(part.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Whether `text` begins with `prefix`, byte for byte.
    public static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }
}
