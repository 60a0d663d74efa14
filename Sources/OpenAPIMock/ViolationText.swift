/// How a violation quotes what a request sent: control characters escaped (`\n`, `\u{1B}`),
/// cut after ``limit`` characters, so that a journal line, a log or a terminal shows it safely.
enum ViolationText {
    /// The characters kept of a found value.
    static let limit = 80

    /// `'abc'` for a request's text.
    static func quoted(_ text: String) -> String {
        "'\(escaped(text))'"
    }

    /// A finding's excerpt of what was found, escaped and cut as ``quoted(_:)`` does.
    static func found(_ excerpt: String) -> String {
        escaped(excerpt)
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _
            where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
                || (0x2028...0x2029).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value):
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
