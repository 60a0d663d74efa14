import JSONKit

/// Turns Foundation's `DecodingError` into an ``EndpointError`` that says where and what:
/// the coding path (`[2].vetId`), expected versus found, and an excerpt of the value.
enum DecodingDiagnostics {
    /// The longest excerpt shown, in characters.
    static let excerptLimit = 80

    /// The error for a body of `type` that threw `error` while decoding.
    static func error(for error: DecodingError, body: [UInt8], type: Any.Type, url: String) -> EndpointError {
        let typeName = name(of: type)
        let root: JSONValue
        do {
            root = try JSONParser().parse(body)
        } catch {
            return .notJSON(
                mediaType: "application/json", reason: "invalid JSON (\(error))", excerpt: excerpt(ofBody: body),
                url: url)
        }
        func failure(
            _ path: [any CodingKey], _ problem: String, excerptOf excerptPath: [any CodingKey]? = nil
        )
            -> EndpointError
        {
            let found = root.value(atCodingPath: excerptPath ?? path)
            return .decoding(
                DecodingFailure(
                    url: url, type: typeName, path: render(path), problem: problem,
                    excerpt: found.map { shortened($0.serialized()) } ?? ""))
        }
        switch error {
        case .typeMismatch(let expected, let context):
            let found = root.value(atCodingPath: context.codingPath).map(DecodingDiagnostics.jsonTypeName) ?? "nothing"
            return failure(context.codingPath, "expected \(name(of: expected)), found \(found)")
        case .valueNotFound(let expected, let context):
            return failure(context.codingPath, "expected \(name(of: expected)), found null")
        case .keyNotFound(let key, let context):
            return failure(
                context.codingPath + [key], "required key '\(key.stringValue)' is missing",
                excerptOf: context.codingPath)
        case .dataCorrupted(let context):
            return failure(context.codingPath, trimmed(context.debugDescription))
        @unknown default:
            return failure([], "\(error)")
        }
    }

    /// The JSON type's name as a decoder user thinks of it: any number is a `number`.
    static func jsonTypeName(_ value: JSONValue) -> String {
        switch value.kind {
        case .integer, .number: "number"
        default: value.kind.rawValue
        }
    }

    /// A coding path as `[2].vetId` or `items[0].name`.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// The body's first characters, for a body that is not JSON.
    static func excerpt(ofBody body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(excerptLimit * 4), as: UTF8.self)
        let oneLine = text.map { $0.isNewline ? " " : $0 }
        return shortened(String(oneLine))
    }

    /// A type's name as Swift code spells it: `[PetJsonModel]` rather than `Array<PetJsonModel>`.
    static func name(of type: Any.Type) -> String {
        // Foundation names the container it wanted, not a Swift type the user wrote.
        if type == [Any].self { return "an array" }
        if type == [String: Any].self { return "an object" }
        var text = String(describing: type)
        while let range = text.firstRange(of: "Array<") {
            guard let close = matchingClose(in: text, from: range.upperBound) else { break }
            let inner = text[range.upperBound..<close]
            text.replaceSubrange(range.lowerBound...close, with: "[\(inner)]")
        }
        return text
    }

    private static func matchingClose(in text: String, from start: String.Index) -> String.Index? {
        var depth = 1
        var index = start
        while index < text.endIndex {
            if text[index] == "<" { depth += 1 }
            if text[index] == ">" {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    static func shortened(_ text: String) -> String {
        text.count <= excerptLimit ? text : String(text.prefix(excerptLimit - 1)) + "…"
    }

    private static func trimmed(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
