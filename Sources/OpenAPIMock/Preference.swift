import HTTPCore

/// What a request's `Prefer` header asks of a document answer: `code=NNN`, `example=NAME`.
struct Preference: Equatable {
    var code: Int?
    var example: String?

    init(_ headers: HTTPHeaders) {
        let prefer = PreferHeader(headers)
        example = prefer.value("example").map(String.init)
        code = prefer.value("code").flatMap { Int($0) }
    }

    /// A preference for a status, an example, both or neither.
    init(code: Int? = nil, example: String? = nil) {
        self.code = code
        self.example = example
    }
}
