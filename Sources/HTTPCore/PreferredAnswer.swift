/// What a request asks of a mock's answer, by Prism's conventions: an item of its `Prefer`
/// header (`example=NAME`, `code=NNN`, `dynamic=true|false`, `seed=N`), else the query
/// parameter that stands for it (`__example`, `__code`, `__dynamic`); the header's item wins
/// over the query's. The one reader of both forms: a stub's variant and a document's answer
/// are chosen by it.
package struct PreferredAnswer: Sendable, Equatable {
    /// An asked item's value and the form it came in (`Prefer: code=` or `__code=`), for messages.
    package struct Item: Sendable, Equatable {
        package let value: String
        package let form: String
    }

    package let example: Item?
    package let code: Item?
    package let dynamic: Item?
    /// `Prefer: seed=N` (it has no query form).
    package let seed: Item?

    /// Reads `headers` and the query's parsed `pairs`.
    package init(_ headers: HTTPHeaders, query pairs: [(name: String, value: String)]) {
        // RFC 7240 §2: of a preference given twice, only the first counts.
        let prefer = PreferHeader(headers)
        func item(_ name: String, query: String?) -> Item? {
            if let value = prefer.value(name) { return Item(value: String(value), form: "Prefer: \(name)=") }
            guard let query, let value = pairs.first(where: { $0.name == query })?.value else { return nil }
            return Item(value: value, form: "\(query)=")
        }
        example = item("example", query: "__example")
        code = item("code", query: "__code")
        dynamic = item("dynamic", query: "__dynamic")
        seed = item("seed", query: nil)
    }

    /// Reads `headers` and the raw `query` (after `?`), parsed only when it may hold one of
    /// the query forms (most requests' queries do not).
    package init(_ headers: HTTPHeaders, rawQuery query: String?) {
        let pairs = query.map { $0.contains("__") || $0.contains("%") ? QueryParameters.parse($0) : [] } ?? []
        self.init(headers, query: pairs)
    }
}
