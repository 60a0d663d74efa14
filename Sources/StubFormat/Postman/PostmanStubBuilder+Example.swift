import HTTPCore
import JSONKit

/// One saved example and the request it belongs to.
struct ExampleContext {
    var request: JSONValue
    var requestPath: JSONPath
    var example: JSONValue
    var examplePath: JSONPath
    var folders: [String]
    var requestName: String
    var exampleName: String
}

extension PostmanStubBuilder {
    /// Response fields a stub never replays: hop-by-hop ones and framing (petmock frames the
    /// body itself; Postman saves bodies decoded, so `Content-Encoding` no longer holds), and
    /// `Date` (a fresh one is sent).
    static let droppedResponseFields: [String] =
        HTTPHeaders.hopByHopFieldNames + ["Content-Length", "Content-Encoding", "Date"]
    /// Request fields an example names that are not matched: every client sends its own.
    static let unmatchedRequestFields = ["Host", "Content-Length"]

    /// The mapping of one example, or nil with the problem that leaves it out. The example's
    /// `originalRequest` gives the method, URL, query and headers matched; without one, the
    /// request's method and path are matched, any value for its `:name` variables.
    mutating func mapping(for context: ExampleContext) -> StubMapping? {
        let title = label(context.folders + [context.requestName, context.exampleName])
        let original = context.example["originalRequest"]
        let originalPath = context.examplePath.appending(key: "originalRequest")
        // A request may be written as its URL alone (a GET).
        let (methodValue, methodPath) =
            original.flatMap { $0["method"].map { ($0, originalPath.appending(key: "method")) } }
            ?? context.request["method"].map { ($0, context.requestPath.appending(key: "method")) }
            ?? (.string("GET"), context.requestPath)
        guard let method = methodValue.stringValue?.uppercased(), Self.isToken(method) else {
            problems.append(
                StubProblem(
                    .warning, .invalidValue, file: source, path: methodPath.description, expected: "an HTTP method",
                    found: MappingDecoder.describe(methodValue) + "; the example '\(title)' is left out"))
            return nil
        }
        let urlSource: (value: JSONValue, path: JSONPath, concrete: Bool)? =
            if let original, original.stringValue != nil {
                (original, originalPath, true)
            } else if let url = original?["url"] {
                (url, originalPath.appending(key: "url"), true)
            } else if context.request.stringValue != nil {
                (context.request, context.requestPath, false)
            } else if let url = context.request["url"] {
                (url, context.requestPath.appending(key: "url"), false)
            } else {
                nil
            }
        guard let urlSource else {
            problems.append(
                StubProblem(
                    .warning, .missingField, file: source, path: context.requestPath.description,
                    detail: "missing field 'url'; the example '\(title)' is left out"))
            return nil
        }
        let url: PostmanURL
        switch PostmanURL.read(urlSource.value) {
        case .success(let read): url = read
        case .failure(let failure):
            problems.append(
                StubProblem(
                    .warning, .wrongType, file: source, path: urlSource.path.description, expected: failure.expected,
                    found: failure.found + "; the example '\(title)' is left out"))
            return nil
        }
        var pattern = RequestPattern(method: HTTPMethod(rawValue: method))
        let (address, unresolved) = variables.resolve(url.address)
        let path = PostmanURL.path(ofResolved: address)
        for name in unresolved {
            let inPath = path.contains("{{\(name)}}")
            warnUnresolved(
                name, at: urlSource.path,
                consequence: inPath ? "matched as any text in its path segment" : "left out with the host part")
        }
        pattern.url = pathPattern(path, variables: urlSource.concrete ? url.pathVariables : [:], at: urlSource.path)
        var specificity = pattern.url.map { if case .urlPath = $0 { 1 } else { 0 } } ?? 0
        if urlSource.concrete {
            for pair in url.query {
                let name = resolved(pair.name, at: urlSource.path)
                let value = resolved(pair.value, at: urlSource.path)
                pattern.queryParameters.append(
                    NamedMatcher(
                        name.removingPercentEncoding(plusAsSpace: true) ?? name,
                        Self.matcher(value.removingPercentEncoding(plusAsSpace: true) ?? value)))
            }
            if let original, original.objectValue != nil {
                for field in headerFields(original["header"], at: originalPath.appending(key: "header"))
                where !Self.unmatchedRequestFields.contains(where: { $0.equalsIgnoringASCIICase(field.name) }) {
                    pattern.headers.append(NamedMatcher(field.name, Self.matcher(field.value)))
                }
            }
            specificity += pattern.queryParameters.count + pattern.headers.count
        }
        guard let response = response(of: context, title: title) else { return nil }
        let name = title
        var generator = SplitMix64(seed: name + " " + context.examplePath.description)
        var postman: JSONObject = [
            "folder": .array(context.folders.map(JSONValue.string)),
            "request": .string(context.requestName),
            "example": .string(context.exampleName),
        ]
        if !urlSource.concrete { postman["matched"] = "the request's path: the example has no originalRequest" }
        return StubMapping(
            id: Identifiers.uuid(high: generator.next(), low: generator.next()), name: name, request: pattern,
            response: response,
            priority: specificity == 0 ? nil : max(1, StubMapping.defaultPriority - specificity),
            metadata: ["postman": .object(postman)])
    }

    /// The example's status, headers and body.
    private mutating func response(of context: ExampleContext, title: String) -> ResponseDefinition? {
        let example = context.example
        let here = context.examplePath
        guard let code = example["code"]?.intValue, (100...599).contains(code) else {
            problems.append(
                StubProblem(
                    .warning, example["code"] == nil ? .missingField : .invalidValue, file: source,
                    path: here.appending(key: "code").description, expected: "a status code from 100 to 599",
                    found: (example["code"].map(MappingDecoder.describe) ?? "nothing")
                        + "; the example '\(title)' is left out"))
            return nil
        }
        var headers = HTTPHeaders()
        for field in headerFields(example["header"], at: here.appending(key: "header"))
        where !Self.droppedResponseFields.contains(where: { $0.equalsIgnoringASCIICase(field.name) }) {
            headers.add(name: field.name, value: field.value)
        }
        var body = ResponseBody.none
        switch example["body"] {
        case .string(let written)? where !written.isEmpty:
            let text = resolved(written, at: here.appending(key: "body"))
            let language = example["_postman_previewlanguage"]?.stringValue?.lowercased()
            let contentType = headers.first(name: "Content-Type")?.lowercased() ?? ""
            if language == "json" || contentType.contains("json"), let value = try? JSONValue(parsing: text) {
                body = .json(value)
            } else {
                body = .text(text)
            }
        case nil, .null?, .string?:
            break
        case let other?:
            problems.append(
                StubProblem(
                    .warning, .wrongType, file: source, path: here.appending(key: "body").description,
                    expected: "a string", found: MappingDecoder.describe(other) + "; answered with no body"))
        }
        return ResponseDefinition(status: Int(code), headers: headers, body: body)
    }

    /// The enabled fields of a `header` value (an array of `{key, value, disabled}`, or the
    /// `Name: value` lines v2.0 allows), variables resolved.
    private mutating func headerFields(_ value: JSONValue?, at path: JSONPath) -> [HTTPHeaders.Field] {
        var fields: [HTTPHeaders.Field] = []
        switch value {
        case nil, .null?:
            break
        case .string(let text)?:
            for line in text.split(whereSeparator: \.isNewline) {
                let colon = line.firstIndex(of: ":")
                let name = colon.map { line[..<$0].trimmingASCIIWhitespaceText() } ?? ""
                guard let colon, Self.isToken(name) else {
                    if !line.allSatisfy(\.isWhitespace) {
                        problems.append(
                            StubProblem(
                                .warning, .invalidValue, file: source, path: path.description,
                                expected: "'Name: value' lines whose name is a header name",
                                found: MappingDecoder.describe(.string(String(line))) + "; the line is left out"))
                    }
                    continue
                }
                let value = line[line.index(after: colon)...].trimmingASCIIWhitespaceText()
                fields.append(.init(name: name, value: resolved(value, at: path)))
            }
        case .array(let entries)?:
            for (index, entry) in entries.enumerated() {
                guard entry["disabled"]?.boolValue != true else { continue }
                guard let name = entry["key"]?.stringValue, Self.isToken(name) else {
                    problems.append(
                        StubProblem(
                            .warning, .invalidValue, file: source, path: path.appending(index: index).description,
                            expected: "an object whose 'key' is a header name",
                            found: MappingDecoder.describe(entry["key"] ?? entry) + "; the field is left out"))
                    continue
                }
                let value = PostmanURL.text(of: entry["value"])
                fields.append(.init(name: name, value: resolved(value, at: path.appending(index: index))))
            }
        case let other?:
            problems.append(
                StubProblem(
                    .warning, .wrongType, file: source, path: path.description, expected: "an array of header fields",
                    found: MappingDecoder.describe(other) + "; left out"))
        }
        return fields
    }

    /// The path as a `urlPath` when every segment is known, else a `urlPathPattern` in which
    /// a `:name` segment without a value, or an unresolved `{{name}}`, matches any segment text.
    private mutating func pathPattern(
        _ path: String, variables values: [String: String], at location: JSONPath
    )
        -> URLPattern
    {
        var literal = true
        var concrete: [String] = []
        var pattern: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.count > 1, segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                if let value = values[name] {
                    let text = resolved(value, at: location)
                    if !text.contains("{{") {
                        concrete.append(text)
                        pattern.append(RegexLiteral.escaped(text))
                        continue
                    }
                }
                literal = false
                pattern.append("[^/]+")
                continue
            }
            guard segment.contains("{{") else {
                concrete.append(String(segment))
                pattern.append(RegexLiteral.escaped(segment))
                continue
            }
            literal = false
            pattern.append(Self.regex(String(segment), any: "[^/]+"))
        }
        return literal ? .urlPath(concrete.joined(separator: "/")) : .urlPathPattern(pattern.joined(separator: "/"))
    }

    /// `equalTo` the text, or where it holds unresolved variables, `matches` any text there.
    static func matcher(_ text: String) -> StringMatcher {
        text.contains("{{") ? .matches(regex(text, any: ".*")) : .equalTo(text)
    }

    /// The text as a regular expression: literal, each `{{name}}` matching `any`.
    static func regex(_ text: String, any: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            result += RegexLiteral.escaped(rest[..<open.lowerBound]) + any
            rest = rest[close.upperBound...]
        }
        return result + RegexLiteral.escaped(rest)
    }

    /// The text with its variables resolved; each one that has no value is a warning.
    mutating func resolved(_ text: String, at path: JSONPath) -> String {
        let (result, unresolved) = variables.resolve(text)
        for name in unresolved { warnUnresolved(name, at: path, consequence: nil) }
        return result
    }

    private mutating func warnUnresolved(_ name: String, at path: JSONPath, consequence: String?) {
        let what =
            name.hasPrefix("$")
            ? "Postman's dynamic variable '{{\(name)}}' is not supported"
            : "the variable '{{\(name)}}' has no value in the collection or the environment"
        let problem = StubProblem(
            .warning, .unresolvedVariable, file: source, path: path.description,
            detail: what + "; " + (consequence ?? "matched as any text, or answered as written"))
        if warned.insert(problem).inserted { problems.append(problem) }
    }

    /// Whether the text is an HTTP token (RFC 9110 §5.6.2), as methods and field names are.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespaceText() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
