import HTTPCore

/// What a request asks for through its headers: a variant by name (`X-Petmock-Variant: NAME`
/// or Prism's `Prefer: example=NAME`) or a status (`Prefer: code=NNN`).
enum VariantSelection: Equatable {
    case none
    case named(String)
    case status(Int)
    case invalid(String)

    /// Reads the selection from request headers; `X-Petmock-Variant` wins over `Prefer`, and
    /// `example=` over `code=`.
    init(_ headers: HTTPHeaders) {
        if let name = headers.first(name: "X-Petmock-Variant") {
            self = .named(name)
            return
        }
        // RFC 7240 §2: of a preference given twice, only the first counts.
        let prefer = PreferHeader(headers)
        if let example = prefer.value("example") {
            self = .named(String(example))
            return
        }
        guard let code = prefer.value("code") else {
            self = .none
            return
        }
        guard let status = Int(code), (100...599).contains(status) else {
            self = .invalid("Prefer: code=\(code) is not a status code: expected a number from 100 to 599")
            return
        }
        self = .status(status)
    }
}
