/// Text from outside (an API's responses, stub files, contracts) made safe to print to a
/// terminal or a CI log, where it would otherwise act: an ESC starts a terminal control
/// sequence (clear the screen, move the cursor, retitle the window), a line feed starts a new
/// line, a bidirectional override reorders what a reader sees, and a line starting with `::`
/// is a GitHub Actions workflow command (`::error::...`, `::add-mask::...`).
///
/// ```swift
/// TerminalText.escape("x\u{1B}[2J\n::error::INJECTED")  // x\u001b[2J\u000a::error::INJECTED
/// TerminalText.escape("::warning::hi")                   // \u003a:warning::hi
/// ```
package enum TerminalText {
    /// Whether to colour output: only on a terminal, never with `NO_COLOR` set
    /// (https://no-color.org) or `TERM=dumb`. Every tool decides the same way.
    package static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// `text` in an SGR colour (`1;31` bold red) when `color`, else as it is.
    package static func paint(_ text: String, _ code: String, if color: Bool) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The text with every character that could act shown as a `\u001b`-style escape (four
    /// lower-case hexadecimal digits): C0 controls (line feed and tab included, so the text
    /// stays on its line), DEL, C1 controls, the line and paragraph separators U+2028 and
    /// U+2029, and the bidirectional embeddings, overrides and isolates U+202A–U+202E and
    /// U+2066–U+2069. When the text starts (after spaces) with `::`, its first colon is
    /// escaped too, so that placed at the start of a line it is no workflow command. Anything
    /// else, backslashes included, is kept as it is.
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) || startsLikeACommand(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        var leading = true
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) || (leading && scalar == ":" && startsLikeACommand(text)) {
                result += "\\u" + hex(scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
            if scalar != " " { leading = false }
        }
        return result
    }

    /// ``escape(_:)`` applied to each line of a text the tool itself split into lines (a log
    /// entry with its header lines, say): the line feeds stay, nothing else can act.
    package static func escapeEachLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\n")
    }

    /// Whether a scalar is shown escaped by ``escape(_:)``.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func startsLikeACommand(_ text: String) -> Bool {
        text.drop { $0 == " " }.hasPrefix("::")
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
