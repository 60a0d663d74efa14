import APISchema
import HTTPClient
import HTTPCore
import JSONKit

/// Calls every GET operation of a contract (or those of ``Configuration/methods``) on a live API
/// (or a running stub server) and checks each response.
///
/// Path parameters come from `--param` values, values found in earlier responses (a
/// parameter's ``ParameterSource``s: every `vetId` seen in `GET /pets` is checked at
/// `GET /vets/{id}`), or else from the contract's examples, `enum` and `default`; at most
/// ``Configuration/maxPerOperation`` calls per operation. An operation with no value for a
/// required parameter, or whose method is not among ``Configuration/methods``, is skipped
/// (``VerificationReport/skipped``), not failed. An operation that
/// documents a JSON request body is sent one made from its schema (petmock's generator), and an
/// undocumented client error (4xx) answering it is a note, not drift. An endpoint that cannot be reached is reported for that endpoint and the others
/// are still checked. When every answer is a 404 or a web page, the base URL is wrong (the
/// API's origin without its path prefix, say): one "could not verify" error with the URL to
/// pass instead (``BaseURLProbe``), not drift in every operation.
///
/// ```swift
/// let verifier = LiveVerifier(contract: contract, models: models, transport: CurlTransport())
/// let report = await verifier.verify(baseURL: "http://127.0.0.1:8081/api", contractName: "built-in")
/// ```
public struct LiveVerifier: Sendable {
    /// Limits and extra request headers.
    public struct Configuration: Sendable {
        /// The most calls made for one operation (distinct parameter values).
        public var maxPerOperation: Int
        /// The time allowed for each request.
        public var timeout: Duration
        /// Headers sent with every request (an `Authorization` for a real API, say).
        public var headers: HTTPHeaders
        /// Told before each request, for a progress line on a terminal; nil for none.
        public var progress: (@Sendable (Progress) -> Void)?
        /// Parameter values given by hand (`--param`): they come before any other source.
        public var parameterValues: [ParameterValue]
        /// The methods whose operations are called (`--methods`); the others are skipped.
        public var methods: Set<HTTPMethod>
        /// Whether every answer being a 404 or a web page is one "could not verify" error (with a
        /// request tried under `BASE/api` for the hint) instead of findings; off for a caller
        /// that says so itself and must not see the extra request (a recording crawl).
        public var detectsWrongBaseURL: Bool

        /// Creates a configuration.
        public init(
            maxPerOperation: Int = 20, timeout: Duration = .seconds(10), headers: HTTPHeaders = HTTPHeaders(),
            progress: (@Sendable (Progress) -> Void)? = nil, parameterValues: [ParameterValue] = [],
            methods: Set<HTTPMethod> = [.get], detectsWrongBaseURL: Bool = true
        ) {
            self.maxPerOperation = maxPerOperation
            self.timeout = timeout
            self.headers = headers
            self.progress = progress
            self.parameterValues = parameterValues
            self.methods = methods
            self.detectsWrongBaseURL = detectsWrongBaseURL
        }
    }

    /// Where a verification is: the operation being checked and its calls so far.
    public struct Progress: Sendable, Hashable, CustomStringConvertible {
        /// The operation, `GET /vets/{id}`.
        public var operation: String
        /// Its position among the operations called (1-based) and their number.
        public var operationNumber: Int
        /// The number of operations.
        public var operationCount: Int
        /// This call's position among the operation's calls (1-based), and their number.
        public var callNumber: Int
        /// The operation's calls.
        public var callCount: Int

        /// `[2/4] GET /vets/{id} (call 3 of 5)`.
        public var description: String {
            "[\(operationNumber)/\(operationCount)] \(operation)"
                + (callCount > 1 ? " (call \(callNumber) of \(callCount))" : "")
        }
    }

    let validator: ContractValidator
    let transport: any HTTPTransport
    let configuration: Configuration

    /// Creates a verifier.
    public init(
        contract: Contract, models: ModelRegistry = ModelRegistry(), transport: any HTTPTransport,
        configuration: Configuration = Configuration()
    ) {
        self.validator = ContractValidator(contract: contract, models: models)
        self.transport = transport
        self.configuration = configuration
    }

    /// One planned request: its URL, and why a success is needed when its values came from
    /// another response.
    struct Call {
        let url: String
        let expectation: StatusExpectation
        var headers: [(name: String, value: String)] = []
        /// The request body, made from the operation's `requestBody`.
        var body: InventedBody?
    }

    /// Why an operation is not called: a required parameter has no value.
    struct Skip: Error {
        let reason: String
    }

    /// Calls and checks every operation against `baseURL`.
    public func verify(baseURL: String, contractName: String) async -> VerificationReport {
        var report = VerificationReport(
            target: baseURL, contract: contractName, decodeCheck: validator.models.coverage(of: validator.contract))
        report.notes += validator.contract.unverified + validator.contract.ignoredKeywords
        var collector = FindingCollector()
        var bodies: [String: [JSONValue]] = [:]
        let operations = LiveVerifier.ordered(validator.contract.operations)
        let called = operations.filter { configuration.methods.contains($0.method) && !$0.responses.isEmpty }.count
        var position = 0
        var answers = AnswerTally()
        for operation in operations {
            guard configuration.methods.contains(operation.method) else {
                let methods = configuration.methods.map(\.rawValue).sorted().joined(separator: ", ")
                report.skipped.append(
                    SkippedOperation(
                        operation: operation.name,
                        reason: "only \(methods) operations are verified live (see --methods)",
                        cause: .methodNotCalled))
                continue
            }
            // OpenAPI 3.1 lets an operation leave out `responses`: there is nothing to check its answer against.
            guard !operation.responses.isEmpty else {
                report.notes.append(
                    "\(operation.name): not called (the document gives it no responses to check against)")
                continue
            }
            position += 1
            let calls: [Call]
            switch plan(operation, baseURL: baseURL, bodies: bodies) {
            case .success(let planned): calls = planned
            case .failure(let skip):
                report.skipped.append(
                    SkippedOperation(operation: operation.name, reason: skip.reason, cause: .noParameterValue))
                continue
            }
            report.operations.append(operation.name)
            for (index, call) in calls.enumerated() {
                configuration.progress?(
                    Progress(
                        operation: operation.name, operationNumber: position, operationCount: called,
                        callNumber: index + 1, callCount: calls.count))
                var request = HTTPClientRequest(
                    method: operation.method, url: call.url, headers: configuration.headers,
                    timeout: configuration.timeout)
                for header in call.headers { request.headers.add(name: header.name, value: header.value) }
                if !request.headers.contains(name: "Accept") {
                    request.headers.add(name: "Accept", value: Self.accept(for: operation))
                }
                if let body = call.body {
                    request.body = body.bytes
                    request.headers.add(name: "Content-Type", value: body.mediaType)
                }
                do {
                    let response = try await transport.send(request)
                    answers.count(response, to: request)
                    if let note = Self.refusalOfInvented(response.status.code, to: call, of: operation) {
                        report.notes.append(note)
                        continue
                    }
                    let result = validator.validate(
                        ObservedResponse(response, url: call.url), for: operation, expecting: call.expectation)
                    collector.add(result.findings)
                    if let body = result.body { bodies[operation.name, default: []].append(body) }
                } catch {
                    report.errors.append(
                        VerificationError(
                            operation: operation.name, url: call.url, message: LiveVerifier.describe(error)))
                }
            }
        }
        report.findings = collector.findings
        if let wrongBase = await wrongBaseURL(baseURL, answers: answers, operations: report.operations) {
            // Every answer came from something that is not the API: its findings are not drift.
            report.findings = []
            report.errors.append(wrongBase)
        }
        return report
    }

    static func describe(_ error: HTTPClientError) -> String {
        let kind: String =
            switch error.kind {
            case .couldNotConnect: "unreachable"
            case .couldNotResolve: "host not found"
            case .timedOut: "timed out"
            case .tls: "TLS failed"
            case .connectionClosed: "connection closed early"
            case .malformedResponse: "malformed response"
            case .tooLarge: "response too large"
            case .invalidURL: "invalid URL"
            case .cancelled: "cancelled"
            case .other: "request failed"
            }
        return "\(kind): \(error.message)"
    }

    /// Operations whose parameters come from other operations go after those operations.
    static func ordered(_ operations: [ContractOperation]) -> [ContractOperation] {
        var remaining = operations
        var done: Set<String> = []
        var result: [ContractOperation] = []
        let names = Set(operations.map(\.name))
        while !remaining.isEmpty {
            let ready = remaining.firstIndex { operation in
                operation.parameters.allSatisfy { parameter in
                    parameter.sources.allSatisfy { done.contains($0.operation) || !names.contains($0.operation) }
                }
            }
            // A cycle of sources: take the next one anyway; its examples stand in.
            let next = remaining.remove(at: ready ?? 0)
            done.insert(next.name)
            result.append(next)
        }
        return result
    }

    /// The requests for one operation, or why it cannot be called.
    ///
    /// Path parameters, required query and cookie parameters, and any parameter with a `--param` value get
    /// values, each from the first of: `--param` (scoped to the operation, then unscoped),
    /// values found in earlier responses (`x-petkit-source`, response `links`), the
    /// parameter's and its schema's examples, the schema's first `enum` value, its `default`.
    /// Optional query and header parameters without a `--param` are left out.
    func plan(
        _ operation: ContractOperation, baseURL: String, bodies: [String: [JSONValue]]
    ) -> Result<[Call], Skip> {
        // `wire`: the values are the text sent (an array's or object's example in its style).
        var valueSets: [(parameter: ContractParameter, values: [String], reason: String?, wire: Bool)] = []
        var missing: [String] = []
        for parameter in operation.parameters {
            let given = givenValues(parameter, of: operation)
            let wanted =
                parameter.location == .path
                || (parameter.required && (parameter.location == .query || parameter.location == .cookie))
            guard wanted || !given.isEmpty else { continue }
            if !given.isEmpty {
                valueSets.append((parameter, given, nil, false))
                continue
            }
            let (found, reason) = foundValues(parameter, bodies: bodies)
            let values = found.isEmpty ? fallbackValues(parameter) : found
            guard !values.isEmpty else {
                missing.append(
                    parameter.location == .path
                        ? "{\(parameter.name)}" : "\(parameter.location.rawValue) parameter '\(parameter.name)'")
                continue
            }
            valueSets.append(
                (parameter, values, found.isEmpty ? nil : reason, found.isEmpty && isStructured(parameter)))
        }
        guard missing.isEmpty else { return .failure(Skip(reason: "no value for " + missing.joined(separator: ", "))) }
        let count = min(configuration.maxPerOperation, valueSets.map(\.values.count).max() ?? 1)
        var calls: [Call] = []
        for position in 0..<max(count, 1) {
            var path = operation.path
            var query: [String] = []
            var headers: [(name: String, value: String)] = []
            var cookies: [String] = []
            var reasons: [String] = []
            for set in valueSets {
                let value = set.values[position % set.values.count]
                if let reason = set.reason { reasons.append("\(reason): \(value)") }
                // An array's or object's example is its style's text, already encoded item by item.
                let encoded = set.wire ? value : LiveVerifier.percentEncode(value)
                switch set.parameter.location {
                case .path: path = path.replacing("{\(set.parameter.name)}", with: encoded)
                case .query:
                    query.append("\(LiveVerifier.percentEncode(set.parameter.name))=\(encoded)")
                case .header: headers.append((set.parameter.name, value))
                case .cookie: cookies.append("\(set.parameter.name)=\(encoded)")
                }
            }
            if !cookies.isEmpty { headers.append(("Cookie", cookies.joined(separator: "; "))) }
            var url = LiveVerifier.join(baseURL, path)
            if !query.isEmpty { url += "?" + query.joined(separator: "&") }
            let expectation: StatusExpectation =
                reasons.isEmpty ? .documented : .success(reason: reasons.joined(separator: ", "))
            let body = inventedBody(for: operation)
            calls.append(
                Call(
                    url: url, expectation: expectation, headers: headers, body: body))
        }
        return .success(calls)
    }

    /// `--param` values for the parameter: those scoped to this operation, else the unscoped ones.
    func givenValues(_ parameter: ContractParameter, of operation: ContractOperation) -> [String] {
        let mine = configuration.parameterValues.filter { $0.name == parameter.name && $0.applies(to: operation) }
        let scoped = mine.filter { $0.operation != nil }
        return LiveVerifier.distinct((scoped.isEmpty ? mine : scoped).map(\.value))
    }

    /// Values found in earlier responses, and what to say about them (`vetId found in GET /pets`).
    func foundValues(
        _ parameter: ContractParameter, bodies: [String: [JSONValue]]
    ) -> (values: [String], reason: String?) {
        var values: [String] = []
        var reason: String?
        for source in parameter.sources {
            guard let path = try? JSONPath(source.path) else { continue }
            for body in bodies[source.operation] ?? [] {
                for value in path.evaluate(on: body) {
                    guard let text = LiveVerifier.scalarText(value), !values.contains(text) else { continue }
                    values.append(text)
                }
            }
            if !values.isEmpty, reason == nil {
                let name =
                    path.components.last.map { component -> String in
                        if case .key(let key) = component { return key }
                        return parameter.name
                    } ?? parameter.name
                reason = "\(name) found in \(source.operation)"
            }
        }
        return (values, reason)
    }

    /// Whether the parameter is an array or an object, whose examples are sent in its style.
    func isStructured(_ parameter: ContractParameter) -> Bool {
        let schema = validator.contract.resolve(parameter.schema) ?? parameter.schema
        return schema.types.contains(.array) || schema.types.contains(.object)
    }

    /// The contract's own values: the parameter's examples, else its schema's (through a `$ref`
    /// too), else the schema's first `enum` value, else its `default`. An array's or object's
    /// example is sent as its style says (``ContractParameter/text(of:encode:)``: `3,4,5`,
    /// `;id=3;id=4`, `;R=100;G=200`), percent-encoded item by item outside a header.
    func fallbackValues(_ parameter: ContractParameter) -> [String] {
        let schema = validator.contract.resolve(parameter.schema) ?? parameter.schema
        var texts: (JSONValue) -> String? = LiveVerifier.scalarText
        if isStructured(parameter) {
            let inHeader = parameter.location == .header
            texts = { value in
                parameter.text(of: value) { inHeader ? $0 : LiveVerifier.percentEncode($0) }
            }
        }
        let examples = LiveVerifier.distinct((parameter.examples + schema.examples).compactMap(texts))
        if !examples.isEmpty { return examples }
        if let first = schema.enumValues?.lazy.compactMap(LiveVerifier.scalarText).first { return [first] }
        if let value = parameter.defaultValue.flatMap(LiveVerifier.scalarText) { return [value] }
        return []
    }

    static func distinct(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .int(let number): String(number)
        case .number(let number): number.text
        case .string(let text): text
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    static func join(_ base: String, _ path: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func percentEncode(_ text: String) -> String {
        text.percentEncoded()
    }

    /// The `Accept` a call sends: `application/json`, then the other media types the operation
    /// documents; those alone when it documents others and no JSON (`text/plain`,
    /// `application/scim+json`), so a server that negotiates answers as the contract says.
    static func accept(for operation: ContractOperation) -> String {
        var types = ["application/json"]
        var documentsJSON = false
        for response in operation.responses {
            for type in [response.mediaType].compactMap({ $0 }) + response.otherContent.map(\.mediaType) {
                let type = type.lowercased()
                if type == "application/json" {
                    documentsJSON = true
                } else if !types.contains(type) {
                    types.append(type)
                }
            }
        }
        if !documentsJSON && types.count > 1 { types.removeFirst() }
        return types.joined(separator: ", ")
    }
}
