import HTTPCore
import JSONKit

extension MappingDecoder {
    static let bodyFields = ["body", "jsonBody", "base64Body", "bodyFileName"]
    private static let proxyFields = [
        "proxyBaseUrl", "additionalProxyRequestHeaders", "removeProxyRequestHeaders", "proxyUrlPrefixToRemove",
    ]

    /// The fields of a response definition.
    static let responseFields =
        ["status", "statusMessage", "headers"] + bodyFields
        + [
            "fixedDelayMilliseconds", "delayDistribution", "chunkedDribbleDelay", "fault", "fromConfiguredStub",
            "transformers", "transformerParameters",
        ] + proxyFields

    /// Decodes a response definition object; nil when it has an error, unless `keepingErrors`
    /// asks for the parts that decoded (nil then only when it is not an object).
    package mutating func decodeResponse(
        _ value: JSONValue, at path: JSONPath, keepingErrors: Bool = false
    ) -> ResponseDefinition? {
        guard let object = object(value, at: path) else { return nil }
        let errorsBefore = errorCount
        var response = ResponseDefinition()
        var bodyField: String?
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.key {
            case "status": response.status = integer(member.value, at: here, in: 100...599) ?? response.status
            case "statusMessage": response.statusMessage = string(member.value, at: here)
            case "headers": response.headers = headers(member.value, at: here)
            case _ where Self.bodyFields.contains(member.key):
                if let body = body(member, at: here, after: &bodyField) { response.body = body }
            case "fixedDelayMilliseconds":
                response.fixedDelayMilliseconds = integer(member.value, at: here, in: 0...3_600_000)
            case "delayDistribution": response.delayDistribution = delayDistribution(member.value, at: here)
            case "chunkedDribbleDelay": response.chunkedDribbleDelay = dribble(member.value, at: here)
            case "fault":
                guard let name = string(member.value, at: here) else { continue }
                guard let fault = StubFault(rawValue: name) else {
                    invalid(
                        here,
                        expected: "one of \(StubFault.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))",
                        found: "'\(name)'")
                    continue
                }
                response.fault = fault
            case "fromConfiguredStub":
                continue  // WireMock adds it to what it serves; it means nothing in a file.
            case "transformers": response.transformers = transformers(member.value, at: here)
            case "transformerParameters":
                if let parameters = self.object(member.value, at: here) { response.transformerParameters = parameters }
            case _ where Self.proxyFields.contains(member.key):
                continue  // Read together below.
            default:
                unknownField(here, member.key, known: Self.responseFields)
            }
        }
        response.proxy = proxy(object, at: path)
        if response.proxy != nil, let bodyField {
            invalid(path.appending(key: bodyField), expected: "no body beside 'proxyBaseUrl'", found: "'\(bodyField)'")
        }
        return errorCount == errorsBefore || keepingErrors ? response : nil
    }

    /// The transformer names: `response-template` is the one petmock has.
    private mutating func transformers(_ value: JSONValue, at path: JSONPath) -> [String] {
        guard case .array(let items) = value else {
            wrongType(path, expected: "an array of transformer names", value)
            return []
        }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            let here = path.appending(index: index)
            guard let name = string(item, at: here) else { continue }
            guard name == ResponseDefinition.responseTemplate else {
                invalid(
                    here, expected: "'\(ResponseDefinition.responseTemplate)' (the only transformer petmock has)",
                    found: "'\(name)'")
                continue
            }
            names.append(name)
        }
        return names
    }

    /// `proxyBaseUrl` and the fields that go with it; the others without it are an error.
    private mutating func proxy(_ object: JSONObject, at path: JSONPath) -> ProxyDefinition? {
        guard let value = object["proxyBaseUrl"] else {
            for field in Self.proxyFields where object[field] != nil {
                invalid(path.appending(key: field), expected: "'proxyBaseUrl' beside it", found: "none")
            }
            return nil
        }
        let here = path.appending(key: "proxyBaseUrl")
        let base = string(value, at: here)
        // A base URL with a mustache is rendered per request when the stub is templated (its
        // rendered value is checked then), so `transformers` is what it needs beside it.
        let templatedBase = base?.containsUTF8("{{") == true
        // The upstream answers: a status, a delay or a fault beside it would be ignored. Its
        // `headers` are set on the upstream's answer, as WireMock adds them.
        for field in [
            "status", "statusMessage", "fixedDelayMilliseconds", "delayDistribution",
            "chunkedDribbleDelay", "fault", "transformers",
        ] where object[field] != nil && !(field == "transformers" && templatedBase) {
            invalid(
                path.appending(key: field), expected: "nothing petmock would ignore beside 'proxyBaseUrl'",
                found: "'\(field)' (the upstream's answer is passed on as it is)")
        }
        guard let base else { return nil }
        let lowered = base.lowercased()
        guard templatedBase || lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), base.count > 8 else {
            invalid(here, expected: "an http:// or https:// base URL", found: "'\(base)'")
            return nil
        }
        var proxy = ProxyDefinition(baseURL: base)
        if let added = object["additionalProxyRequestHeaders"] {
            proxy.additionalRequestHeaders = headers(added, at: path.appending(key: "additionalProxyRequestHeaders"))
        }
        if let removed = object["removeProxyRequestHeaders"] {
            let removedPath = path.appending(key: "removeProxyRequestHeaders")
            if case .array(let names) = removed {
                for (index, name) in names.enumerated() {
                    if let text = string(name, at: removedPath.appending(index: index)) {
                        proxy.removedRequestHeaders.append(text)
                    }
                }
            } else {
                wrongType(removedPath, expected: "an array of header names", removed)
            }
        }
        if let prefix = object["proxyUrlPrefixToRemove"] {
            proxy.urlPrefixToRemove = string(prefix, at: path.appending(key: "proxyUrlPrefixToRemove"))
        }
        return proxy
    }

    /// The body one of ``bodyFields`` gives (a `null` other than `jsonBody`'s is no body), unless
    /// another body field came first (`seen`), which is an error naming both.
    mutating func body(_ member: JSONMember, at path: JSONPath, after seen: inout String?) -> ResponseBody? {
        if member.key != "jsonBody" && member.value.isNull { return nil }
        if let seen {
            invalid(path, expected: "one body field", found: "both '\(seen)' and '\(member.key)'")
            return nil
        }
        seen = member.key
        return body(member.key, member.value, at: path)
    }

    mutating func body(_ field: String, _ value: JSONValue, at path: JSONPath) -> ResponseBody? {
        switch field {
        case "jsonBody":
            return .json(value)
        case "base64Body":
            guard let text = string(value, at: path) else { return nil }
            guard let bytes = Base64.decode(text) else {
                invalid(path, expected: "base64 text", found: "'\(text.prefix(40))'")
                return nil
            }
            return .bytes(bytes)
        case "bodyFileName":
            guard let name = string(value, at: path) else { return nil }
            if name.isEmpty {
                invalid(path, expected: "a file name under __files/", found: "an empty string")
                return nil
            }
            return .file(name)
        default:
            // WireMock accepts a JSON value in `body` too, and sends it as text.
            switch value {
            case .string(let text): return .text(text)
            case .object, .array: return .json(value)
            default:
                wrongType(path, expected: "a string", value)
                return nil
            }
        }
    }

    mutating func headers(_ value: JSONValue, at path: JSONPath) -> HTTPHeaders {
        guard let object = object(value, at: path) else { return HTTPHeaders() }
        var headers = HTTPHeaders()
        for member in object.members {
            let here = path.appending(key: member.key)
            if member.key.isEmpty || member.key.utf8.contains(where: { $0 <= 32 || $0 == UInt8(ascii: ":") }) {
                invalid(here, expected: "a header name (a token)", found: "'\(member.key)'")
                continue
            }
            switch member.value {
            case .string(let text):
                headers.add(name: member.key, value: text)
            case .array(let values):
                for (index, element) in values.enumerated() {
                    if let text = string(element, at: here.appending(index: index)) {
                        headers.add(name: member.key, value: text)
                    }
                }
            case .int, .number, .bool:
                // WireMock writes such values as their text; accept them the same way.
                headers.add(name: member.key, value: member.value.serialized())
            default:
                wrongType(here, expected: "a string or an array of strings", member.value)
            }
        }
        return headers
    }

    /// A `delayDistribution` object (`uniform`, `lognormal`, `fixed`); nil with its problems when
    /// it has errors. Also read by petmock's global settings.
    package mutating func delayDistribution(_ value: JSONValue, at path: JSONPath) -> DelayDistribution? {
        guard let object = object(value, at: path) else { return nil }
        let typePath = path.appending(key: "type")
        guard let typeValue = object["type"] else {
            missing(typePath, "type")
            return nil
        }
        guard let type = string(typeValue, at: typePath) else { return nil }
        func field(_ name: String) -> JSONValue? { object[name] }
        switch type {
        case "uniform":
            guard let lowerValue = field("lower"), let upperValue = field("upper") else {
                missing(
                    path.appending(key: field("lower") == nil ? "lower" : "upper"),
                    field("lower") == nil ? "lower" : "upper")
                return nil
            }
            guard let lower = integer(lowerValue, at: path.appending(key: "lower"), in: 0...3_600_000),
                let upper = integer(upperValue, at: path.appending(key: "upper"), in: 0...3_600_000)
            else { return nil }
            if upper < lower {
                invalid(path.appending(key: "upper"), expected: "at least 'lower' (\(lower))", found: "\(upper)")
                return nil
            }
            return .uniform(lower: lower, upper: upper)
        case "lognormal":
            guard let medianValue = field("median") else {
                missing(path.appending(key: "median"), "median")
                return nil
            }
            guard let median = number(medianValue, at: path.appending(key: "median")) else { return nil }
            let sigma = field("sigma").flatMap { number($0, at: path.appending(key: "sigma")) } ?? 0.1
            let maximum = field("maxValue").flatMap { number($0, at: path.appending(key: "maxValue")) }
            return .lognormal(median: max(0, median), sigma: max(0, sigma), maxValue: maximum)
        case "fixed":
            guard let millisecondsValue = field("milliseconds") else {
                missing(path.appending(key: "milliseconds"), "milliseconds")
                return nil
            }
            guard
                let milliseconds = integer(
                    millisecondsValue, at: path.appending(key: "milliseconds"), in: 0...3_600_000)
            else { return nil }
            return .uniform(lower: milliseconds, upper: milliseconds)
        default:
            invalid(typePath, expected: "'uniform', 'lognormal' or 'fixed'", found: "'\(type)'")
            return nil
        }
    }

    private mutating func dribble(_ value: JSONValue, at path: JSONPath) -> ChunkedDribbleDelay? {
        guard let object = object(value, at: path) else { return nil }
        guard let chunksValue = object["numberOfChunks"] else {
            missing(path.appending(key: "numberOfChunks"), "numberOfChunks")
            return nil
        }
        guard let durationValue = object["totalDuration"] else {
            missing(path.appending(key: "totalDuration"), "totalDuration")
            return nil
        }
        guard let chunks = integer(chunksValue, at: path.appending(key: "numberOfChunks"), in: 1...100_000),
            let duration = integer(durationValue, at: path.appending(key: "totalDuration"), in: 0...3_600_000)
        else { return nil }
        return ChunkedDribbleDelay(numberOfChunks: chunks, totalDuration: duration)
    }
}
