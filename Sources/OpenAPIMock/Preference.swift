import HTTPCore

/// What a request's `Prefer` header asks of a document answer: `code=NNN`, `example=NAME`,
/// `dynamic=true` (a fresh generated body) and `seed=N` (the body of that seed again).
struct Preference: Equatable {
    var code: Int?
    var example: String?
    var dynamic = false
    var seed: UInt64?

    init(_ headers: HTTPHeaders) {
        let prefer = PreferHeader(headers)
        example = prefer.value("example").map(String.init)
        code = prefer.value("code").flatMap { Int($0) }
        dynamic = prefer.value("dynamic").map { $0.lowercased() == "true" } ?? false
        seed = prefer.value("seed").flatMap { UInt64($0) }
        // A seed alone asks for that seed's dynamic body.
        dynamic = dynamic || seed != nil
    }

    /// A preference for a status, an example, both or neither.
    init(code: Int? = nil, example: String? = nil) {
        self.code = code
        self.example = example
    }
}
