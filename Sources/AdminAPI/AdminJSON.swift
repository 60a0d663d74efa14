import HTTPCore
import JSONKit
import MockEngine
import StubFormat

/// The admin API's JSON shapes, WireMock's where they overlap.
enum AdminJSON {
    /// A journaled request as WireMock's `LoggedRequest`.
    static func request(_ request: LoggedRequest) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(request.id)
        object["url"] = .string(request.url)
        object["absoluteUrl"] = .string(request.absoluteURL)
        object["scheme"] = .string(request.scheme)
        object["method"] = .string(request.method.rawValue)
        object["clientIp"] = .string(request.clientIP)
        object["headers"] = headers(request.headers)
        object["cookies"] = .object([:])
        object["browserProxyRequest"] = false
        object["loggedDate"] = .int(request.loggedDate)
        object["loggedDateString"] = .string(Timestamp.iso8601(milliseconds: request.loggedDate))
        object["body"] = .string(request.bodyText)
        object["bodyAsBase64"] = .string(Base64.encode(request.body))
        var query = JSONObject()
        let target = request.url
        if let question = target.firstIndex(of: "?") {
            for (name, value) in QueryParameters.parse(target[target.index(after: question)...]) {
                if case .object(var entry)? = query[name], case .array(let values)? = entry["values"] {
                    entry["values"] = .array(values + [.string(value)])
                    query[name] = .object(entry)
                } else {
                    query[name] = ["key": .string(name), "values": [.string(value)]]
                }
            }
        }
        object["queryParams"] = .object(query)
        if let variant = request.variant { object["petmockVariant"] = .string(variant) }
        return .object(object)
    }

    /// A journal entry as WireMock's serve event.
    static func serveEvent(_ request: LoggedRequest) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(request.id)
        object["request"] = self.request(request)
        var definition = JSONObject()
        definition["status"] = request.responseStatus.map { .int(Int64($0)) } ?? .null
        definition["fromConfiguredStub"] = .bool(request.wasMatched)
        object["responseDefinition"] = .object(definition)
        object["response"] = ["status": request.responseStatus.map { .int(Int64($0)) } ?? .null]
        object["wasMatched"] = .bool(request.wasMatched)
        if let mapping = request.matchedMapping {
            object["stubMapping"] = mapping.json
        } else if !request.wasMatched {
            object["stubMapping"] = StubMapping.notConfigured.json
        }
        // For people (the dashboard): WireMock's stand-in mapping of an unmatched request is no stub.
        if let operation = request.documentOperation {
            object["petmockStubLabel"] = .string("document: \(operation)")
        } else if let problem = request.problem {
            // Refused before any stub could answer: what the request asked for is the problem.
            object["petmockStubLabel"] = .string(problem.kind.rawValue)
            object["petmockProblem"] = self.problem(problem)
        } else if request.isPreflight {
            // Answered by petmock's CORS stage (`--cors`), not a stub, and not left unanswered.
            object["petmockStubLabel"] = "CORS preflight"
            object["petmockPreflight"] = true
        } else if !request.wasMatched {
            object["petmockStubLabel"] = "no stub matched"
        } else if let label = request.stubLabel {
            object["petmockStubLabel"] = .string(label)
        }
        if let upstream = request.upstream {
            for member in proxied(upstream) { object[member.key] = member.value }
        }
        if let document = document(request) { object["petmockDocument"] = document }
        return .object(object)
    }

    /// A request's problem: its kind, what it asked for and the 400's message.
    static func problem(_ problem: RequestProblem) -> JSONValue {
        var object: JSONObject = ["kind": .string(problem.kind.rawValue), "message": .string(problem.message)]
        if let requested = problem.requested { object["requested"] = .string(requested) }
        return .object(object)
    }

    /// A request problem as `GET /__admin/petmock/problems` lists it.
    static func problem(_ count: RequestProblemCount) -> JSONValue {
        guard case .object(var object) = problem(count.problem) else { return .null }
        object["request"] = .string(count.request)
        object["count"] = .int(Int64(count.count))
        return .object(object)
    }

    /// A webhook call's outcome as `GET /__admin/petmock/webhooks` lists it.
    static func webhook(_ call: WebhookCall) -> JSONValue {
        var object: JSONObject = [
            "sequence": .int(Int64(call.sequence)),
            "date": .string(Timestamp.iso8601(milliseconds: call.date)),
            "method": .string(call.method), "url": .string(call.url), "request": .string(call.request),
            "stubId": .string(call.stubID), "outcome": .string(call.outcome),
            "durationMs": .int(Int64(RecordedMappingBuilder.milliseconds(call.duration))),
        ]
        if let name = call.stubName { object["stubName"] = .string(name) }
        if let callback = call.callback {
            object["stubId"] = nil
            object["callback"] = ["name": .string(callback.name), "operation": .string(callback.operation)]
        }
        if let status = call.status { object["status"] = .int(Int64(status)) }
        if let error = call.error { object["error"] = .string(error) }
        return .object(object)
    }

    /// A proxied request's extra members: the live response as WireMock logs one, and
    /// `petmockProxied` saying where it went and how it ended.
    static func proxied(_ upstream: UpstreamResult) -> JSONObject {
        var object = JSONObject()
        var marker: JSONObject = [
            "url": .string(upstream.url),
            "durationMs": .int(Int64(RecordedMappingBuilder.milliseconds(upstream.duration))),
        ]
        switch upstream.outcome {
        case .success(let response):
            object["response"] = [
                "status": .int(Int64(response.status.code)), "headers": headers(response.headers),
                "body": .string(String(decoding: response.body, as: UTF8.self)),
                "bodyAsBase64": .string(Base64.encode(response.body)),
            ]
        case .failure(let error):
            marker["error"] = .string(error.kind.rawValue)
            marker["message"] = .string(error.message)
        }
        object["petmockProxied"] = .object(marker)
        return object
    }

    /// Header fields as an object, a repeated name's values as an array.
    static func headers(_ headers: HTTPHeaders) -> JSONValue {
        var object = JSONObject()
        for field in headers {
            switch object[field.name] {
            case .string(let first)?: object[field.name] = .array([.string(first), .string(field.value)])
            case .array(let values)?: object[field.name] = .array(values + [.string(field.value)])
            default: object[field.name] = .string(field.value)
            }
        }
        return .object(object)
    }

    /// A near miss as WireMock's, plus petmock's per-criterion detail.
    static func nearMiss(_ miss: NearMiss, request: LoggedRequest) -> JSONValue {
        [
            "request": self.request(request),
            "stubMapping": miss.mapping.json,
            "matchResult": ["distance": .double(UnmatchedReport.rounded(miss.distance))],
            "criteria": UnmatchedReport.json(miss)["criteria"] ?? .array([]),
            "label": .string(miss.label),
            "file": miss.file.map(JSONValue.string) ?? .null,
        ]
    }

    /// A scenario as WireMock shows it: its mappings as stub objects.
    static func scenario(_ scenario: Scenario, mappings: [String: StubMapping]) -> JSONValue {
        [
            "id": .string(scenario.name), "name": .string(scenario.name), "state": .string(scenario.state),
            "possibleStates": .array(scenario.possibleStates.map(JSONValue.string)),
            "mappings": .array(scenario.mappingIDs.compactMap { mappings[$0]?.json }),
        ]
    }

    /// WireMock's error shape: `{"errors": [{"title": ..., "detail": ..., "source": {"pointer": ...}}]}`.
    static func errors(_ title: String, problems: [StubProblem] = []) -> JSONValue {
        guard !problems.isEmpty else { return ["errors": [["title": .string(title)]]] }
        return [
            "errors": .array(
                problems.map { problem in
                    [
                        "title": .string(problem.message), "detail": .string(problem.description),
                        "source": ["pointer": .string(pointer(problem.path))],
                    ]
                })
        ]
    }

    /// One admin error in WireMock's shape: `{"errors": [{"code": 109, "title": ..., "detail": ...}]}`,
    /// the code and detail where the error has them.
    static func error(_ error: AdminError) -> JSONValue {
        var object: JSONObject = ["title": .string(error.title)]
        if let code = error.code { object["code"] = .int(Int64(code)) }
        if let detail = error.detail { object["detail"] = .string(detail) }
        return ["errors": [.object(object)]]
    }

    /// `$.request.headers.Accept` as a JSON pointer, `/request/headers/Accept`.
    static func pointer(_ path: String) -> String {
        guard let parsed = try? JSONPath(path) else { return path }
        var pointer = ""
        for component in parsed.components {
            switch component {
            case .key(let key): pointer += "/" + JSONPointerToken.escape(key)
            case .index(let index): pointer += "/\(index)"
            default: pointer += "/*"
            }
        }
        return pointer
    }
}
