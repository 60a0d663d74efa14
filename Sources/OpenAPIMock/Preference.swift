import HTTPCore

/// What a request's `Prefer` header asks of a document answer: `code=NNN`, `example=NAME`.
struct Preference: Equatable {
    var code: Int?
    var example: String?

    init(_ headers: HTTPHeaders) {
        guard let prefer = headers.first(name: "Prefer") else { return }
        for preference in prefer.split(separator: ",") {
            let pair = preference.split(separator: ";").first ?? preference[...]
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let key = pair[..<equals].trimmingASCIISpaces()
            var value = pair[pair.index(after: equals)...].trimmingASCIISpaces()
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            if key.equalsIgnoringASCIICase("example") { example = String(value) }
            if key.equalsIgnoringASCIICase("code") { code = Int(value) }
        }
    }
}
