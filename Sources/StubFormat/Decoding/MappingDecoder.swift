import HTTPCore
import JSONKit

/// Turns WireMock mapping JSON into ``StubMapping`` values, collecting every problem with its
/// JSON path instead of stopping at the first. A mapping with an error comes back nil (what
/// of it did decode goes to ``rejected``); one with only warnings comes back with the unknown
/// parts ignored.
package struct MappingDecoder {
    /// The file the JSON came from, for problems.
    package let file: String
    /// The problems found so far.
    package var problems: [StubProblem] = []
    /// The mappings that had errors, with the parts that decoded (an empty request or
    /// response for one that did not), so the checks that need a whole mapping (patterns,
    /// body files) can still report on them.
    package var rejected: [(mapping: StubMapping, path: JSONPath)] = []

    package init(file: String) {
        self.file = file
    }

    /// Decodes a whole mapping file: one mapping, or `{"mappings": [...]}`.
    package mutating func decodeFile(_ value: JSONValue) -> [(mapping: StubMapping, path: JSONPath)] {
        guard case .object(let object) = value else {
            wrongType(.root, expected: "a mapping object or {\"mappings\": [...]}", value)
            return []
        }
        if object.contains(key: "mappings") && !object.contains(key: "request") {
            let path = JSONPath.root.appending(key: "mappings")
            for member in object.members where member.key != "mappings" && member.key != "meta" {
                unknownField(JSONPath.root.appending(key: member.key), member.key, known: ["mappings", "meta"])
            }
            guard case .array(let elements) = object["mappings"] ?? .null else {
                wrongType(path, expected: "an array of mappings", object["mappings"] ?? .null)
                return []
            }
            var mappings: [(mapping: StubMapping, path: JSONPath)] = []
            for (index, element) in elements.enumerated() {
                let here = path.appending(index: index)
                if let mapping = decodeMapping(element, at: here) { mappings.append((mapping, here)) }
            }
            return mappings
        }
        return decodeMapping(value, at: .root).map { [($0, .root)] } ?? []
    }

    /// Decodes one mapping object at `path`; nil when it has an error.
    package mutating func decodeMapping(_ value: JSONValue, at path: JSONPath) -> StubMapping? {
        let errorsBefore = errorCount
        guard case .object(let object) = value else {
            wrongType(path, expected: "a mapping object", value)
            return nil
        }
        var request: RequestPattern?
        var response: ResponseDefinition?
        var mapping = StubMapping(request: RequestPattern(), response: ResponseDefinition())
        var idGiven = false
        var unknownKeys: [String] = []
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.key {
            case "id", "uuid":
                // `null` or "" is no id, as in WireMock (the mapping gets one).
                if member.value.isNull || member.value.stringValue == "" { continue }
                if let text = string(member.value, at: here), !idGiven || member.key == "id" {
                    mapping.id = text
                    idGiven = true
                }
            case "name": mapping.name = string(member.value, at: here)
            case "request": request = decodeRequest(member.value, at: here, keepingErrors: true)
            case "response": response = decodeResponse(member.value, at: here, keepingErrors: true)
            case "priority": mapping.priority = integer(member.value, at: here)
            case "scenarioName": mapping.scenarioName = string(member.value, at: here)
            case "requiredScenarioState": mapping.requiredScenarioState = string(member.value, at: here)
            case "newScenarioState": mapping.newScenarioState = string(member.value, at: here)
            case "persistent": mapping.persistent = bool(member.value, at: here)
            case "metadata":
                if case .object(let metadata) = member.value {
                    mapping.metadata = metadata
                    checkVariantName(metadata, at: here)
                } else if !member.value.isNull {
                    wrongType(here, expected: "an object", member.value)
                }
            case "serveEventListeners", "postServeActions":
                serveEventListeners(member.value, at: here, legacy: member.key == "postServeActions", into: &mapping)
            case "insertionIndex":
                continue  // WireMock writes it in exports; the load order decides here.
            default:
                unknownField(here, member.key, known: Self.mappingFields)
                unknownKeys.append(member.key)
            }
        }
        // As in WireMock, no `request` matches every request and no `response` answers 200
        // (`{}` is a valid mapping), unless an unknown field beside them may be a misspelt one:
        // then the mapping would match more, or answer other, than its author meant.
        for (field, present) in [("request", request != nil), ("response", response != nil)]
        where !present && !object.contains(key: field) {
            if unknownKeys.isEmpty {
                if field == "request" { request = RequestPattern() } else { response = ResponseDefinition() }
            } else {
                problems.append(
                    StubProblem(
                        .error, .missingField, file: file, path: path.appending(key: field).description,
                        detail: "missing field '\(field)' (is '\(unknownKeys[0])' a misspelling of it?)"))
            }
        }
        if mapping.scenarioName == nil && (mapping.requiredScenarioState != nil || mapping.newScenarioState != nil) {
            problems.append(
                StubProblem(
                    .warning, .missingField, file: file, path: path.appending(key: "scenarioName").description,
                    detail: "scenario states are ignored without 'scenarioName'"))
            mapping.requiredScenarioState = nil
            mapping.newScenarioState = nil
        }
        mapping.request = request ?? RequestPattern()
        mapping.response = response ?? ResponseDefinition()
        guard errorCount == errorsBefore, request != nil, response != nil else {
            rejected.append((mapping, path))
            return nil
        }
        return mapping
    }

    /// A variant name, and a base mapping's example name, must be a plain word: the generated
    /// forms (`missing:x`, `slow:100`, `truncated`, ...) are reserved.
    private mutating func checkVariantName(_ metadata: JSONObject, at path: JSONPath) {
        if let flag = metadata["byAccept"], bool(flag, at: path.appending(key: "byAccept")) == true,
            metadata["variant"] == nil
        {
            invalid(
                path.appending(key: "byAccept"), expected: "a 'variant' beside it (only a variant is an alternative)",
                found: "none")
        }
        if metadata["example"] != nil, metadata["variant"] != nil {
            invalid(
                path.appending(key: "example"),
                expected: "no 'variant' beside it (a base mapping's example name; a variant is asked by its own)",
                found: "a 'variant'")
        }
        for key in ["variant", "example"] {
            guard let value = metadata[key] else { continue }
            let here = path.appending(key: key)
            guard let name = string(value, at: here) else { continue }
            if name.isEmpty || name.contains(":") || name.contains(" ")
                || StubMapping.reservedVariantNames.contains(name)
            {
                invalid(
                    here, expected: "a variant name without ':' or spaces, other than a generated variant",
                    found: "'\(name)'")
            }
        }
    }

    package var errorCount: Int { problems.reduce(0) { $0 + ($1.isError ? 1 : 0) } }
}

// Reading typed values and recording problems.
extension MappingDecoder {
    package mutating func string(_ value: JSONValue, at path: JSONPath) -> String? {
        if case .string(let text) = value { return text }
        wrongType(path, expected: "a string", value)
        return nil
    }

    package mutating func bool(_ value: JSONValue, at path: JSONPath) -> Bool? {
        if case .bool(let flag) = value { return flag }
        wrongType(path, expected: "true or false", value)
        return nil
    }

    package mutating func integer(_ value: JSONValue, at path: JSONPath, in range: ClosedRange<Int>? = nil) -> Int? {
        var result: Int?
        switch value {
        case .int(let number): result = Int(exactly: number)
        case .number(let number):
            let double = number.doubleValue
            if double.rounded() == double, abs(double) < 1e15 { result = Int(double) }
        default: break
        }
        guard let result else {
            wrongType(
                path, expected: range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer",
                value)
            return nil
        }
        if let range, !range.contains(result) {
            invalid(path, expected: "an integer from \(range.lowerBound) to \(range.upperBound)", found: "\(result)")
            return nil
        }
        return result
    }

    package mutating func number(_ value: JSONValue, at path: JSONPath) -> Double? {
        if let double = value.doubleValue { return double }
        wrongType(path, expected: "a number", value)
        return nil
    }

    package mutating func object(_ value: JSONValue, at path: JSONPath) -> JSONObject? {
        if case .object(let object) = value { return object }
        wrongType(path, expected: "an object", value)
        return nil
    }

    package mutating func wrongType(_ path: JSONPath, expected: String, _ value: JSONValue) {
        problems.append(
            StubProblem(
                .error, .wrongType, file: file, path: path.description, expected: expected,
                found: Self.describe(value)))
    }

    package mutating func invalid(
        _ path: JSONPath, expected: String, found: String, kind: StubProblem.Kind = .invalidValue
    ) {
        problems.append(StubProblem(.error, kind, file: file, path: path.description, expected: expected, found: found))
    }

    package mutating func missing(_ path: JSONPath, _ field: String) {
        problems.append(
            StubProblem(.error, .missingField, file: file, path: path.description, detail: "missing field '\(field)'"))
    }

    package mutating func unknownField(
        _ path: JSONPath, _ field: String, note: String = "ignored", known: [String] = []
    ) {
        problems.append(
            StubProblem(
                .warning, .unknownField, file: file, path: path.description,
                detail: "unknown field '\(field)'\(Self.didYouMean(field, among: known)), \(note)"))
    }

    /// ` (did you mean 'headers'?)` for a field near one of `known`, else nothing.
    package static func didYouMean(_ field: String, among known: [String]) -> String {
        StringDistance.nearest(to: field, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The fields of a mapping.
    static let mappingFields = [
        "id", "uuid", "name", "request", "response", "priority", "scenarioName", "requiredScenarioState",
        "newScenarioState", "persistent", "metadata", "insertionIndex", "serveEventListeners", "postServeActions",
    ]

    /// A value for messages: `string '200'`, `integer 5`, `an array`, `null`.
    package static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "boolean \(flag)"
        case .int(let number): "integer \(number)"
        case .number(let number): "number \(number.text)"
        case .string(let text): "string '\(text.count > 60 ? String(text.prefix(57)) + "..." : text)'"
        case .array(let elements): "an array of \(elements.count)"
        case .object: "an object"
        }
    }
}
