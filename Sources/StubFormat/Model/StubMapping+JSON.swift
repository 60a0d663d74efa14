import HTTPCore
import JSONKit

extension StubMapping {
    /// Parses one mapping from WireMock JSON; throws ``StubLoadError/invalidStubs(_:)`` listing
    /// every error. Warnings (unknown fields) do not throw.
    public init(json: JSONValue) throws(StubLoadError) {
        var decoder = MappingDecoder(file: "")
        guard let mapping = decoder.decodeMapping(json, at: .root) else {
            throw .invalidStubs(decoder.problems.filter(\.isError))
        }
        self = mapping
    }

    /// Parses one mapping from WireMock JSON text.
    public init(json text: String) throws(StubLoadError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw .invalidStubs([
                StubProblem(.error, .invalidJSON, file: "", path: "$", detail: "not JSON: \(error)")
            ])
        }
        try self.init(json: value)
    }

    /// The mapping as WireMock JSON, as the admin API returns it and ``Admin`` saves it.
    public var json: JSONValue {
        var object = JSONObject()
        object["id"] = .string(id)
        if let name { object["name"] = .string(name) }
        object["request"] = request.json
        object["response"] = response.json
        object["uuid"] = .string(id)
        if let priority { object["priority"] = .int(Int64(priority)) }
        if let scenarioName { object["scenarioName"] = .string(scenarioName) }
        if let requiredScenarioState { object["requiredScenarioState"] = .string(requiredScenarioState) }
        if let newScenarioState { object["newScenarioState"] = .string(newScenarioState) }
        if let persistent { object["persistent"] = .bool(persistent) }
        if let metadata { object["metadata"] = .object(metadata) }
        if !webhooks.isEmpty || !stateListeners.isEmpty {
            object["serveEventListeners"] = .array(webhooks.map(\.json) + stateListeners.map(\.json))
        }
        return .object(object)
    }
}

extension RequestPattern {
    /// The pattern as WireMock JSON.
    public var json: JSONValue {
        var object = JSONObject()
        if let methods {
            object["method"] = [methods.key: .array(methods.methods.map { .string($0.rawValue) })]
        } else {
            object["method"] = .string(method?.rawValue ?? "ANY")
        }
        if let url { object[url.fieldName] = .string(url.value) }
        for (key, matchers) in [
            ("pathParameters", pathParameters), ("queryParameters", queryParameters), ("headers", headers),
            ("cookies", cookies), ("formParameters", formParameters),
        ] where !matchers.isEmpty {
            object[key] = .object(JSONObject(matchers.map { ($0.name, $0.matcher.json) }))
        }
        if let basicAuthCredentials {
            object["basicAuthCredentials"] = [
                "username": .string(basicAuthCredentials.username), "password": .string(basicAuthCredentials.password),
            ]
        }
        if !bodyPatterns.isEmpty { object["bodyPatterns"] = .array(bodyPatterns.map(\.json)) }
        if !multipartPatterns.isEmpty { object["multipartPatterns"] = .array(multipartPatterns.map(\.json)) }
        if let stateMatcher { object["customMatcher"] = stateMatcher.json }
        return .object(object)
    }
}

extension MultipartPattern {
    /// The criterion as a WireMock `multipartPatterns` entry.
    public var json: JSONValue {
        var object: JSONObject = ["matchingType": .string(matchingType.rawValue)]
        if let name { object["name"] = .string(name) }
        if let fileName { object["fileName"] = .string(fileName) }
        if !headers.isEmpty { object["headers"] = .object(JSONObject(headers.map { ($0.name, $0.matcher.json) })) }
        if !bodyPatterns.isEmpty { object["bodyPatterns"] = .array(bodyPatterns.map(\.json)) }
        return .object(object)
    }
}

extension StringMatcher {
    /// The matcher as a WireMock matcher object.
    public var json: JSONValue {
        switch self {
        case .equalTo(let text, let caseInsensitive):
            var object: JSONObject = ["equalTo": .string(text)]
            if caseInsensitive { object["caseInsensitive"] = true }
            return .object(object)
        case .contains(let text), .doesNotContain(let text), .matches(let text), .doesNotMatch(let text):
            return .object([operatorName: .string(text)])
        case .absent: return ["absent": true]
        case .anything: return ["anything": "anything"]
        case .equalToJson(let value, let ignoreArrayOrder, let ignoreExtraElements):
            var object: JSONObject = ["equalToJson": value]
            if ignoreArrayOrder { object["ignoreArrayOrder"] = true }
            if ignoreExtraElements { object["ignoreExtraElements"] = true }
            return .object(object)
        case .matchesJsonPath(let expression, let sub):
            guard let sub, case .object(var object) = sub.json else { return ["matchesJsonPath": .string(expression)] }
            object.members.insert(JSONMember(key: "expression", value: .string(expression)), at: 0)
            return ["matchesJsonPath": .object(object)]
        case .binaryEqualTo(let bytes): return ["binaryEqualTo": .string(Base64.encode(bytes))]
        case .and(let parts): return ["and": .array(parts.map(\.json))]
        case .or(let parts): return ["or": .array(parts.map(\.json))]
        case .not(let inner): return ["not": inner.json]
        case .hasExactly(let parts): return ["hasExactly": .array(parts.map(\.json))]
        case .includes(let parts): return ["includes": .array(parts.map(\.json))]
        case .equalToXml(let xml): return .object(xml.jsonMembers)
        case .matchesXPath(let xpath): return xpath.json
        case .dateTime(let spec):
            var object: JSONObject = [spec.comparison.rawValue: .string(spec.expected)]
            if let format = spec.actualFormat { object["actualFormat"] = .string(format) }
            if let offset = spec.expectedOffset { object["expectedOffset"] = .int(Int64(offset)) }
            if let unit = spec.expectedOffsetUnit { object["expectedOffsetUnit"] = .string(unit) }
            if let truncation = spec.truncateExpected { object["truncateExpected"] = .string(truncation) }
            if let truncation = spec.truncateActual { object["truncateActual"] = .string(truncation) }
            if spec.applyTruncationLast { object["applyTruncationLast"] = true }
            return .object(object)
        case .matchesJsonSchema(let schema, let version):
            var object: JSONObject = ["matchesJsonSchema": schema]
            if let version { object["schemaVersion"] = .string(version) }
            return .object(object)
        case .number(let comparison, let expected):
            let value: JSONValue =
                NumberComparison.isWhole(expected)
                ? .int(Int64(expected)) : JSONNumber(expected).map { .number($0) } ?? .string("\(expected)")
            return .object([comparison.rawValue: value])
        }
    }
}

extension ResponseDefinition {
    /// The definition as WireMock JSON.
    public var json: JSONValue {
        var object = JSONObject()
        // A proxy stub answers with the upstream's status: writing one would be read as ignored.
        if proxy == nil { object["status"] = .int(Int64(status)) }
        if let proxy {
            object["proxyBaseUrl"] = .string(proxy.baseURL)
            if !proxy.additionalRequestHeaders.fields.isEmpty {
                object["additionalProxyRequestHeaders"] = .object(
                    JSONObject(proxy.additionalRequestHeaders.fields.map { ($0.name, .string($0.value)) }))
            }
            if !proxy.removedRequestHeaders.isEmpty {
                object["removeProxyRequestHeaders"] = .array(proxy.removedRequestHeaders.map(JSONValue.string))
            }
            if let prefix = proxy.urlPrefixToRemove { object["proxyUrlPrefixToRemove"] = .string(prefix) }
        }
        if let statusMessage { object["statusMessage"] = .string(statusMessage) }
        if !headers.isEmpty { object["headers"] = headers.wireMockJSON }
        body.write(into: &object)
        if let fixedDelayMilliseconds { object["fixedDelayMilliseconds"] = .int(Int64(fixedDelayMilliseconds)) }
        switch delayDistribution {
        case .uniform(let lower, let upper)?:
            object["delayDistribution"] = ["type": "uniform", "lower": .int(Int64(lower)), "upper": .int(Int64(upper))]
        case .lognormal(let median, let sigma, let maxValue)?:
            var distribution: JSONObject = ["type": "lognormal", "median": .double(median), "sigma": .double(sigma)]
            if let maxValue { distribution["maxValue"] = .double(maxValue) }
            object["delayDistribution"] = .object(distribution)
        case nil: break
        }
        if !transformers.isEmpty { object["transformers"] = .array(transformers.map(JSONValue.string)) }
        if let transformerParameters { object["transformerParameters"] = .object(transformerParameters) }
        if let dribble = chunkedDribbleDelay {
            object["chunkedDribbleDelay"] = [
                "numberOfChunks": .int(Int64(dribble.numberOfChunks)),
                "totalDuration": .int(Int64(dribble.totalDuration)),
            ]
        }
        if let fault { object["fault"] = .string(fault.rawValue) }
        return .object(object)
    }
}

extension HTTPHeaders {
    /// The fields as WireMock writes them: one member per name, in order, a repeated name's
    /// values as an array.
    package var wireMockJSON: JSONValue {
        var grouped = JSONObject()
        for field in self {
            switch grouped[field.name] {
            case .string(let first)?: grouped[field.name] = .array([.string(first), .string(field.value)])
            case .array(let values)?: grouped[field.name] = .array(values + [.string(field.value)])
            default: grouped[field.name] = .string(field.value)
            }
        }
        return .object(grouped)
    }
}

extension ResponseBody {
    /// Sets the body's WireMock field (`body`, `jsonBody`, `base64Body` or `bodyFileName`) in
    /// `object`; no body sets none.
    package func write(into object: inout JSONObject) {
        switch self {
        case .none: break
        case .text(let text): object["body"] = .string(text)
        case .json(let value): object["jsonBody"] = value
        case .bytes(let bytes): object["base64Body"] = .string(Base64.encode(bytes))
        case .file(let name): object["bodyFileName"] = .string(name)
        }
    }
}
