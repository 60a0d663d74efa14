/// The header fields of a ``RawResponse``, in the order they came, names as sent.
package struct RawHeaders: Sendable, Sequence {
    /// Every field, in order.
    package var fields: [(name: String, value: String)]

    /// Headers holding these fields.
    package init(fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// The value of the first field with this name, ignoring case.
    package subscript(name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    /// The values of every field with this name, ignoring case, in order.
    package func values(name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Whether a comma-separated list in a field with this name holds `token`, ignoring case
    /// (`Transfer-Encoding: gzip, chunked` holds `chunked`).
    package func containsToken(_ token: String, inHeader name: String) -> Bool {
        values(name: name).contains { value in
            value.split(separator: ",").contains { Self.same($0.trimmingSpaces(), token) }
        }
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    private static func same(_ one: some StringProtocol, _ other: some StringProtocol) -> Bool {
        one.lowercased() == other.lowercased()
    }
}

extension StringProtocol {
    /// The text without the spaces and tabs around it (HTTP's optional whitespace).
    func trimmingSpaces() -> Substring {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return Substring(slice)
    }
}
