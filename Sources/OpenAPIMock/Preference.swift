import HTTPCore

/// What a request asks of a document answer, by its `Prefer` header: `code=NNN`,
/// `example=NAME`, `dynamic=true` (a fresh generated body) and `seed=N` (the body of that seed
/// again); or by Prism's query forms of the first three, `__code`, `__example` and `__dynamic`
/// (the header's item wins over the query's).
struct Preference: Equatable {
    var code: Int?
    var example: String?
    /// `dynamic=true` or `dynamic=false`; nil when the request does not say (the responder's
    /// own setting, `--dynamic`, then decides).
    var dynamic: Bool?
    var seed: UInt64?

    /// The query parameters that stand for `Prefer` items.
    static let queryNames: Set<String> = ["__code", "__example", "__dynamic"]

    init(_ headers: HTTPHeaders, query: String? = nil) {
        let prefer = PreferHeader(headers)
        // The query is read only when it may hold a preference (most requests' do not).
        let pairs = query.map { $0.contains("__") || $0.contains("%") ? QueryParameters.parse($0) : [] } ?? []
        func fromQuery(_ name: String) -> String? {
            pairs.first { $0.name == name }?.value
        }
        example = prefer.value("example").map(String.init) ?? fromQuery("__example")
        code = (prefer.value("code").map(String.init) ?? fromQuery("__code")).flatMap { Int($0) }
        dynamic = (prefer.value("dynamic").map(String.init) ?? fromQuery("__dynamic")).map { $0.lowercased() == "true" }
        seed = prefer.value("seed").flatMap { UInt64($0) }
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
