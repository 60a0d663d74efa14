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
        let preferred = PreferredAnswer(headers, query: query)
        if let example = preferred.example {
            self = .named(example.value)
            return
        }
        guard let (code, form) = preferred.code.map({ ($0.value, $0.form) }) else {
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
