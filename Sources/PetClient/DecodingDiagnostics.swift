import Foundation

/// Turns Foundation's `DecodingError` into a ``PetClientError`` that says where and what:
/// the coding path (`[2].vetId`), expected versus found, and an excerpt of the value.
enum DecodingDiagnostics {
    /// The longest excerpt shown, in characters.
    static let excerptLimit = 80

    /// The error for a body of `type` that threw `error` while decoding.
    static func error(for error: DecodingError, body: [UInt8], type: Any.Type, url: String) -> PetClientError {
        let typeName = name(of: type)
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(body), options: .fragmentsAllowed)
        } catch {
            return .notJSON(
                mediaType: "application/json", reason: syntaxProblem(error), excerpt: excerpt(ofBody: body), url: url)
        }
        func failure(
            _ path: [any CodingKey], _ problem: String, excerptOf excerptPath: [any CodingKey]? = nil
        )
            -> PetClientError
        {
            let value = self.value(in: root, at: excerptPath ?? path)
            return .decoding(
                DecodingFailure(
                    url: url, type: typeName, path: render(path), problem: problem,
                    excerpt: value.map(excerpt(of:)) ?? ""))
        }
        switch error {
        case .typeMismatch(let expected, let context):
            let found = value(in: root, at: context.codingPath).map(jsonTypeName) ?? "nothing"
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

    /// Why bytes failed to parse as JSON, from JSONSerialization's debug description.
    static func syntaxProblem(_ error: any Error) -> String {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        return detail.map { "invalid JSON (\(trimmed($0)))" } ?? "invalid JSON"
    }

    private static func value(in root: Any, at path: [any CodingKey]) -> Any? {
        var current: Any = root
        for key in path {
            if let array = current as? [Any], let index = key.intValue, array.indices.contains(index) {
                current = array[index]
            } else if let object = current as? [String: Any], let next = object[key.stringValue] {
                current = next
            } else {
                return nil
            }
        }
        return current
    }

    private static func excerpt(of value: Any) -> String {
        let options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else {
            return shortened("\(value)")
        }
        return shortened(String(decoding: data, as: UTF8.self))
    }

    private static func jsonTypeName(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case is String: return "string"
        case is [Any]: return "array"
        case is [String: Any]: return "object"
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumber too; their ObjC type is `c` (char).
            return String(cString: number.objCType) == "c" ? "boolean" : "number"
        default: return "\(type(of: value))"
        }
    }

    /// A type's name as Swift code spells it: `[PetJsonModel]` rather than `Array<PetJsonModel>`.
    static func name(of type: Any.Type) -> String {
        var text = String(describing: type)
        while let range = text.range(of: "Array<") {
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

    private static func shortened(_ text: String) -> String {
        text.count <= excerptLimit ? text : String(text.prefix(excerptLimit - 1)) + "…"
    }

    private static func trimmed(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
