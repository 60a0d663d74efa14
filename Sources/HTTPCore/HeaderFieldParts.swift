extension Substring {
    /// The parts of a header field's value between each `separator` (`,` between list members,
    /// `;` between parameters or cookies), read Unicode scalar by scalar, as the field's bytes
    /// are: never by Character, where a combining mark after a separator would make one
    /// Character with it and hide it. With `quoting`, a separator inside a quoted string
    /// (RFC 9110 §5.6.4: `"…"`, `\` escaping the next character) does not cut. Empty parts are
    /// kept; the parts are not trimmed.
    package func headerParts(separatedBy separator: Unicode.Scalar, quoting: Bool = false) -> [Substring] {
        var parts: [Substring] = []
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var quoted = false
        var escaped = false
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if escaped {
                escaped = false
            } else if quoting && quoted && scalar == "\\" {
                escaped = true
            } else if quoting && scalar == "\"" {
                quoted.toggle()
            } else if !quoted && scalar == separator {
                parts.append(self[start..<index])
                start = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        parts.append(self[start...])
        return parts
    }

    /// The text before and after the first `separator` (`=` in `name=value`), found scalar by
    /// scalar; nil when there is none.
    package func splitOnce(at separator: Unicode.Scalar) -> (before: Substring, after: Substring)? {
        let scalars = unicodeScalars
        guard let index = scalars.firstIndex(of: separator) else { return nil }
        return (self[..<index], self[scalars.index(after: index)...])
    }

    /// The text without one pair of surrounding double quotes, when it has them (compared by
    /// scalar, so a mark after the closing quote keeps them).
    package func withoutSurroundingQuotes() -> Substring {
        let scalars = unicodeScalars
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return self }
        return self[scalars.index(after: scalars.startIndex)..<scalars.index(before: scalars.endIndex)]
    }
}
