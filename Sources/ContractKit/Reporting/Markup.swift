import HTTPCore

/// Escaping for HTML and XML alike: `&`, `<`, `>`, `"` and `'` as entities (`&#39;`, which
/// both read); controls, line and paragraph separators and bidirectional overrides shown as
/// `\u001b`-style text (``TerminalText``), never dropped, so nothing from outside is lost and
/// nothing XML 1.0 forbids is written. Line feeds, carriage returns and tabs are kept when
/// `keepingLineBreaks` (preformatted text, JUnit messages).
enum Markup {
    static func escape(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                let isLineBreak = scalar == "\n" || scalar == "\r" || scalar == "\t"
                if isLineBreak && keepingLineBreaks {
                    result.unicodeScalars.append(scalar)
                } else if TerminalText.needsEscape(scalar) {
                    result += TerminalText.escape(String(scalar))
                } else if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\\u" + String(scalar.value, radix: 16)  // not characters in XML 1.0
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
