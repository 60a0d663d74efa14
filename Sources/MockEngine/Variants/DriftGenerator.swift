import HTTPCore
import HTTPHandlerKit
import JSONKit
import StubFormat

/// Makes the generated variants of a stub's response: JSON field drift, a cut or empty body,
/// a proxy's HTML error page, a slower answer or a reset.
enum DriftGenerator {
    /// The answer a stub gives under a generated variant. Named variants and responses a
    /// drift does not apply to (a fault; a JSON drift whose field the body lacks, or on a body
    /// that is not JSON) come back as they were, the very same response (see
    /// ``isUnchanged(_:from:)``), without a `Petmock-Variant` header. Every answer made here
    /// keeps the stub's `Matched-Stub-Id` and `Matched-Stub-Name`.
    static func apply(_ variant: Variant, to served: ServedResponse, stub: StubMapping?) -> ServedResponse {
        switch (variant, served) {
        case (.reset, .prepared(_, let delay, _)), (.reset, .fault(_, let delay)):
            return .fault(.connectionReset, delay)
        case (.slow(let milliseconds), .prepared(let prepared, let delay, let dribble)):
            let slower = StubDelay(
                fixedMilliseconds: delay.fixedMilliseconds + milliseconds, distribution: delay.distribution)
            var response = prepared.response
            response.headers.replaceOrAdd(name: "Petmock-Variant", value: variant.description)
            return .prepared(PreparedResponse(response), slower, dribble)
        case (.slow(let milliseconds), .fault(let fault, let delay)):
            return .fault(
                fault,
                StubDelay(fixedMilliseconds: delay.fixedMilliseconds + milliseconds, distribution: delay.distribution))
        case (.htmlError, .prepared(_, let delay, _)), (.htmlError, .fault(_, let delay)):
            var headers = HTTPHeaders([("Content-Type", "text/html; charset=utf-8"), ("Server", "nginx")])
            if let stub {
                headers.add(name: "Matched-Stub-Id", value: stub.id)
                if let name = stub.name { headers.add(name: "Matched-Stub-Name", value: name) }
            }
            headers.add(name: "Petmock-Variant", value: variant.description)
            let response = HTTPResponse(status: .badGateway, headers: headers, body: Array(htmlErrorPage.utf8))
            return .prepared(PreparedResponse(response), delay, nil)
        case (_, .fault):
            return served
        case (_, .prepared(let prepared, let delay, let dribble)):
            var response = prepared.response
            switch variant {
            case .truncated: response.body = Array(response.body.prefix(response.body.count / 2))
            case .empty: response.body = []
            case .missing, .null, .type, .rename:
                guard let value = try? JSONValue(parsing: response.body), let drifted = try? drift(value, variant)
                else { return served }
                response.body = drifted.serializedBytes()
            case .named, .htmlError, .slow, .reset:
                break
            }
            response.headers.replaceOrAdd(name: "Petmock-Variant", value: variant.description)
            response.compression = StubCompiler.compression(for: response.headers, body: response.body)
            return .prepared(PreparedResponse(response), delay, dribble)
        }
    }

    /// Whether `apply` left the stub's answer as it was: a JSON drift that did not apply.
    static func isUnchanged(_ answer: ServedResponse, from served: ServedResponse) -> Bool {
        switch (answer, served) {
        case (.prepared(let answer, _, _), .prepared(let served, _, _)): answer === served
        case (.fault(let answer, _), .fault(let served, _)): answer == served
        default: false
        }
    }

    /// Why a JSON drift does not apply to the stub's answer, as the 400 a request that asked
    /// for it by name (as given) gets; nil when it applies, and for the other variants.
    static func refusal(of variant: Variant, named name: String, for served: ServedResponse) -> VariantError? {
        guard variant.field != nil else { return nil }
        guard case .prepared(let prepared, _, _) = served else {
            return VariantError(name: name, reason: "the stub answers with a fault, not a body", knownFields: [])
        }
        let body = prepared.response.body
        guard !body.isEmpty else {
            return VariantError(name: name, reason: "the response has no body", knownFields: [])
        }
        guard let value = try? JSONValue(parsing: body) else {
            let type = prepared.response.headers.first(name: "Content-Type").map { " (\($0))" } ?? ""
            return VariantError(name: name, reason: "the response body is not JSON\(type)", knownFields: [])
        }
        do {
            _ = try drift(value, variant)
            return nil
        } catch {
            return VariantError(name: name, reason: error.reason, knownFields: error.knownFields)
        }
    }

    /// Why a JSON drift does not apply to a body: its field is in no object, or its JSONPath
    /// selects nothing (or nothing the drift can change); with the body's fields.
    struct Miss: Error, Equatable {
        var reason: String
        var knownFields: [String]
    }

    /// Applies a JSON drift (`missing`, `null`, `type`, `rename`) to a body: to every object
    /// that has the key, or to the places the JSONPath selects. Throws when it would change
    /// nothing there; other variants return the body as it is.
    static func drift(_ value: JSONValue, _ variant: Variant) throws(Miss) -> JSONValue {
        guard let field = variant.field else { return value }
        switch field {
        case .key(let key):
            guard hasKey(key, in: value) else {
                throw Miss(
                    reason: "no JSON object in the response has the field '\(key)'", knownFields: fields(of: value))
            }
            return transform(value, variant)
        case .path(let path):
            let locations = path.locations(in: value)
            guard !locations.isEmpty else {
                throw Miss(
                    reason: "the JSONPath \(path) selects nothing in the response", knownFields: fields(of: value))
            }
            if case .missing = variant, locations.contains(.root) {
                throw Miss(
                    reason: "the JSONPath \(path) selects the whole body, which 'missing' cannot remove (try 'empty')",
                    knownFields: fields(of: value))
            }
            if case .rename = variant, let unnamed = locations.first(where: { !$0.isMember }) {
                throw Miss(
                    reason:
                        "the JSONPath \(path) selects \(unnamed), not an object member, so there is no name to change",
                    knownFields: fields(of: value))
            }
            var steps: [JSONPath.Component] = []
            return transform(value, at: &steps, targets: Set(locations), variant)
        }
    }

    /// The keys of every JSON object in a value, at any depth: sorted, each once.
    static func fields(of value: JSONValue) -> [String] {
        var fields = Set<String>()
        collectKeys(value, into: &fields)
        return fields.sorted()
    }

    /// Adds the keys of every JSON object in a value, at any depth.
    static func collectKeys(_ value: JSONValue, into fields: inout Set<String>) {
        switch value {
        case .object(let object):
            for member in object.members {
                fields.insert(member.key)
                collectKeys(member.value, into: &fields)
            }
        case .array(let elements):
            for element in elements { collectKeys(element, into: &fields) }
        default:
            break
        }
    }

    private static func hasKey(_ key: String, in value: JSONValue) -> Bool {
        switch value {
        case .object(let object): object.members.contains { $0.key == key || hasKey(key, in: $0.value) }
        case .array(let elements): elements.contains { hasKey(key, in: $0) }
        default: false
        }
    }

    /// Applies a JSON drift to every object in the value, at any depth.
    static func transform(_ value: JSONValue, _ variant: Variant) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { transform($0, variant) })
        case .object(let object):
            var members: [JSONMember] = []
            members.reserveCapacity(object.count)
            for member in object.members {
                let inner = transform(member.value, variant)
                switch variant {
                case .missing(.key(let field)) where member.key == field:
                    continue
                case .null(.key(let field)) where member.key == field:
                    members.append(JSONMember(key: member.key, value: .null))
                case .type(.key(let field)) where member.key == field:
                    members.append(JSONMember(key: member.key, value: otherType(inner)))
                case .rename(.key(let field), let new) where member.key == field:
                    members.append(JSONMember(key: new, value: inner))
                default:
                    members.append(JSONMember(key: member.key, value: inner))
                }
            }
            return .object(JSONObject(members))
        default:
            return value
        }
    }

    /// Applies a JSON drift to the nodes at `targets` (definite paths), inside out: a
    /// selected node inside another selected node is changed first. `steps` is the path to
    /// `value`.
    private static func transform(
        _ value: JSONValue, at steps: inout [JSONPath.Component], targets: Set<JSONPath>, _ variant: Variant
    ) -> JSONValue {
        let inner: JSONValue
        switch value {
        case .array(let elements):
            var kept: [JSONValue] = []
            kept.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                steps.append(.index(index))
                defer { steps.removeLast() }
                if case .missing = variant, targets.contains(JSONPath(components: steps)) { continue }
                kept.append(transform(element, at: &steps, targets: targets, variant))
            }
            inner = .array(kept)
        case .object(let object):
            var members: [JSONMember] = []
            members.reserveCapacity(object.count)
            for member in object.members {
                steps.append(.key(member.key))
                defer { steps.removeLast() }
                let selected = targets.contains(JSONPath(components: steps))
                if selected, case .missing = variant { continue }
                let changed = transform(member.value, at: &steps, targets: targets, variant)
                if selected, case .rename(_, let new) = variant {
                    members.append(JSONMember(key: new, value: changed))
                } else {
                    members.append(JSONMember(key: member.key, value: changed))
                }
            }
            inner = .object(JSONObject(members))
        default:
            inner = value
        }
        guard targets.contains(JSONPath(components: steps)) else { return inner }
        switch variant {
        case .null: return .null
        case .type: return otherType(inner)
        default: return inner
        }
    }

    /// A value of another JSON type: numbers become their text, text that reads as a number
    /// becomes that number (other text becomes 0), booleans and null become text, arrays are
    /// wrapped in an object and objects in an array.
    static func otherType(_ value: JSONValue) -> JSONValue {
        switch value {
        case .int, .number, .bool, .null: return .string(value.serialized())
        case .string(let text):
            if let number = try? JSONValue(parsing: text), number.doubleValue != nil { return number }
            return .int(0)
        case .array: return .object(["items": value])
        case .object: return .array([value])
        }
    }

    /// What nginx sends when the upstream fails.
    static let htmlErrorPage = """
        <html>
        <head><title>502 Bad Gateway</title></head>
        <body>
        <center><h1>502 Bad Gateway</h1></center>
        <hr><center>nginx</center>
        </body>
        </html>

        """
}

extension JSONPath {
    /// Whether the path ends at an object member (a definite path's last step is a key).
    fileprivate var isMember: Bool {
        if case .key? = components.last { return true }
        return false
    }
}
