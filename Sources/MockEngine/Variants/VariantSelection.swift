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
        guard let prefer = headers.first(name: "Prefer") else {
            self = .none
            return
        }
        var code: String?
        for preference in prefer.split(separator: ",") {
            let pair = preference.split(separator: ";").first ?? preference[...]
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let key = pair[..<equals].trimmingASCIISpaces()
            var value = pair[pair.index(after: equals)...].trimmingASCIISpaces()
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            if key.equalsIgnoringASCIICase("example") {
                self = .named(String(value))
                return
            }
            if key.equalsIgnoringASCIICase("code") { code = String(value) }
        }
        guard let code else {
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
