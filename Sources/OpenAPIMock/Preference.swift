import HTTPCore

/// What a request asks of a document answer (``PreferredAnswer``, read from its `Prefer`
/// header and Prism's query forms): `code=NNN`, `example=NAME`, `dynamic=true` (a fresh
/// generated body) and `seed=N` (the body of that seed again).
struct Preference: Equatable {
    var code: Int?
    var example: String?
    /// `dynamic=true` or `dynamic=false`; nil when the request does not say (the responder's
    /// own setting, `--dynamic`, then decides).
    var dynamic: Bool?
    var seed: UInt64?

    init(_ headers: HTTPHeaders, query: String? = nil) {
        let preferred = PreferredAnswer(headers, rawQuery: query)
        example = preferred.example?.value
        code = preferred.code.flatMap { Int($0.value) }
        dynamic = preferred.dynamic.map { $0.value.lowercased() == "true" }
        seed = preferred.seed.flatMap { UInt64($0.value) }
        // A seed asks for that seed's dynamic body.
        if seed != nil { dynamic = true }
    }

    /// A preference for a status, an example, both or neither.
    init(code: Int? = nil, example: String? = nil) {
        self.code = code
        self.example = example
    }

    /// Whether the request asks for nothing (the plain answer).
    /// (`dynamic=false` asks for the plain answer too.)
    var isEmpty: Bool { code == nil && example == nil && dynamic != true && seed == nil }
}
