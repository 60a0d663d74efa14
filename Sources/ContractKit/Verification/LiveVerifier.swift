import HTTPClient
import HTTPCore
import JSONKit

/// Calls every GET operation of a contract on a live API (or a running stub server) and checks
/// each response.
///
/// Path parameters come from values found in earlier responses (a parameter's
/// ``ParameterSource``s: every `vetId` seen in `GET /pets` is checked at `GET /vets/{id}`), or
/// else from the contract's examples; at most ``Configuration/maxPerOperation`` calls per
/// operation. An endpoint that cannot be reached is reported for that endpoint and the others
/// are still checked.
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

        /// Creates a configuration.
        public init(
            maxPerOperation: Int = 20, timeout: Duration = .seconds(10), headers: HTTPHeaders = HTTPHeaders(),
            progress: (@Sendable (Progress) -> Void)? = nil
        ) {
            self.maxPerOperation = maxPerOperation
            self.timeout = timeout
            self.headers = headers
            self.progress = progress
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

    private let validator: ContractValidator
    private let transport: any HTTPTransport
    private let configuration: Configuration

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
    }

    /// Calls and checks every operation against `baseURL`.
    public func verify(baseURL: String, contractName: String) async -> VerificationReport {
        var report = VerificationReport(
            target: baseURL, contract: contractName, decodeCheck: validator.models.coverage(of: validator.contract))
        var collector = FindingCollector()
        var bodies: [String: [JSONValue]] = [:]
        let operations = LiveVerifier.ordered(validator.contract.operations)
        let called = operations.filter { $0.method == .get }.count
        for operation in operations {
            guard operation.method == .get else {
                report.notes.append("\(operation.name): not called (only GET operations are verified live)")
                continue
            }
            let calls: [Call]
            switch plan(operation, baseURL: baseURL, bodies: bodies) {
            case .success(let planned): calls = planned
            case .failure(let error):
                report.errors.append(error)
                continue
            }
            report.operations.append(operation.name)
            for (index, call) in calls.enumerated() {
                configuration.progress?(
                    Progress(
                        operation: operation.name, operationNumber: report.operations.count, operationCount: called,
                        callNumber: index + 1, callCount: calls.count))
                var request = HTTPClientRequest(
                    method: .get, url: call.url, headers: configuration.headers, timeout: configuration.timeout)
                if !request.headers.contains(name: "Accept") {
                    request.headers.add(name: "Accept", value: "application/json")
                }
                do {
                    let response = try await transport.send(request)
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
    func plan(
        _ operation: ContractOperation, baseURL: String, bodies: [String: [JSONValue]]
    ) -> Result<[Call], VerificationError> {
        var valueSets: [(parameter: ContractParameter, values: [String], reason: String?)] = []
        for parameter in operation.parameters where parameter.location == .path || parameter.required {
            guard parameter.location != .header else { continue }
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
            if values.isEmpty {
                values = parameter.examples.compactMap(LiveVerifier.scalarText)
            }
            guard !values.isEmpty else {
                if parameter.location == .query && !parameter.required { continue }
                return .failure(
                    VerificationError(
                        operation: operation.name, url: nil,
                        message: "no value for \(parameter.location.rawValue) parameter '\(parameter.name)': "
                            + "add an example or an x-petkit-source to the contract"))
            }
            valueSets.append((parameter, values, reason))
        }
        let count = min(configuration.maxPerOperation, valueSets.map(\.values.count).max() ?? 1)
        var calls: [Call] = []
        for position in 0..<max(count, 1) {
            var path = operation.path
            var query: [String] = []
            var reasons: [String] = []
            for set in valueSets {
                let value = set.values[position % set.values.count]
                if let reason = set.reason { reasons.append("\(reason): \(value)") }
                switch set.parameter.location {
                case .path: path = path.replacing("{\(set.parameter.name)}", with: LiveVerifier.percentEncode(value))
                default:
                    query.append(
                        "\(LiveVerifier.percentEncode(set.parameter.name))=\(LiveVerifier.percentEncode(value))")
                }
            }
            var url = LiveVerifier.join(baseURL, path)
            if !query.isEmpty { url += "?" + query.joined(separator: "&") }
            let expectation: StatusExpectation =
                reasons.isEmpty ? .documented : .success(reason: reasons.joined(separator: ", "))
            calls.append(Call(url: url, expectation: expectation))
        }
        return .success(calls)
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
        var result = ""
        for byte in text.utf8 {
            let isUnreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D
                || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if isUnreserved {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
