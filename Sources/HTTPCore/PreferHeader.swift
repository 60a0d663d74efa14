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
        for preference in prefer[...].headerParts(separatedBy: ",", quoting: true) {
            let pair = preference.headerParts(separatedBy: ";", quoting: true)[0]
            // Read by Unicode scalar, as the field's bytes are: a mark after `;`, `=` or `"`
            // would make one Character with it and hide the separator.
            guard let (name, value) = pair.splitOnce(at: "=") else { continue }
            preferences.append((name.trimmingASCIISpaces(), value.trimmingASCIISpaces().withoutSurroundingQuotes()))
        }
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
