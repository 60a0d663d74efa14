import HTTPCore

/// What a request asks for through its headers: a variant by name (`X-Petmock-Variant: NAME`
/// or Prism's `Prefer: example=NAME`) or a status (`Prefer: code=NNN`); or through Prism's
/// query forms of the two, `__example=NAME` and `__code=NNN` (the header's item wins over the
/// query's, as for a document's answers).
enum VariantSelection: Equatable {
    case none
    case named(String)
    case status(Int)
    case invalid(String)

    /// Reads the selection from request headers and query parameters; `X-Petmock-Variant` wins
    /// over `Prefer`, `Prefer` over the query, and `example=` over `code=`.
    init(_ headers: HTTPHeaders, query: [(name: String, value: String)] = []) {
        if let name = headers.first(name: "X-Petmock-Variant") {
            self = .named(name)
            return
        }
        // RFC 7240 §2: of a preference given twice, only the first counts.
        let prefer = PreferHeader(headers)
        func fromQuery(_ name: String) -> String? {
            query.first { $0.name == name }?.value
        }
        if let example = prefer.value("example").map(String.init) ?? fromQuery("__example") {
            self = .named(example)
            return
        }
        let asked: (code: String, form: String)? =
            prefer.value("code").map { (String($0), "Prefer: code=") } ?? fromQuery("__code").map { ($0, "__code=") }
        guard let (code, form) = asked else {
            self = .none
            return
        }
        guard let status = Int(code), (100...599).contains(status) else {
            self = .invalid("\(form)\(code) is not a status code: expected a number from 100 to 599")
            return
        }
        self = .status(status)
    }
}
