/// The preferences of a `Prefer` header field (RFC 7240 §2): `code=404, example="bad one"`,
/// each as a token name and its value (unquoted; parameters after `;` set aside), in order.
/// petmock reads `code` and `example` from it for stub and document answers alike.
package struct PreferHeader: Sendable, Hashable {
    /// The preferences that have a value, in the order written.
    package var preferences: [(name: Substring, value: Substring)]

    /// The preferences of the first `Prefer` field, or none.
    package init(_ headers: HTTPHeaders) {
        preferences = []
        guard let prefer = headers.first(name: "Prefer") else { return }
        for preference in Self.split(prefer[...], at: ",") {
            let pair = Self.split(preference, at: ";").first ?? preference
            // Read by Unicode scalar, as the field's bytes are: a mark after `;`, `=` or `"`
            // would make one Character with it and hide the separator.
            guard let equals = pair.unicodeScalars.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingASCIISpaces()
            var value = pair[pair.unicodeScalars.index(after: equals)...].trimmingASCIISpaces()
            let scalars = value.unicodeScalars
            if scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" {
                value = value[scalars.index(after: scalars.startIndex)..<scalars.index(before: scalars.endIndex)]
            }
            preferences.append((name, value))
        }
    }

    /// `text` cut at each `separator` outside a quoted string (RFC 9110 §5.6.4: a quoted string
    /// may hold the separator, and `\` escapes the next character), scalar by scalar.
    static func split(_ text: Substring, at separator: Unicode.Scalar) -> [Substring] {
        var parts: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var quoted = false
        var escaped = false
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if escaped {
                escaped = false
            } else if quoted && scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                quoted.toggle()
            } else if !quoted && scalar == separator {
                parts.append(text[start..<index])
                start = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }

    /// The value of the first preference named `name` (in any case), or nil.
    package func value(_ name: String) -> Substring? {
        preferences.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    package static func == (lhs: PreferHeader, rhs: PreferHeader) -> Bool {
        lhs.preferences.elementsEqual(rhs.preferences) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        for preference in preferences {
            hasher.combine(preference.name)
            hasher.combine(preference.value)
        }
    }
}
