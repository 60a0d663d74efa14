import HTTPCore
import HTTPServer
import JSONKit

/// Makes the generated variants of a stub's response: JSON field drift, a cut or empty body,
/// a proxy's HTML error page, a slower answer or a reset.
enum DriftGenerator {
    /// The answer a stub gives under a generated variant. Named variants and responses a
    /// drift cannot apply to (a fault; JSON drift on a body that is not JSON) come back as
    /// they were, apart from the `Petmock-Variant` header. Every answer made here keeps the
    /// stub's `Matched-Stub-Id` and `Matched-Stub-Name`.
    static func apply(_ variant: Variant, to served: ServedResponse, stub: StubMapping) -> ServedResponse {
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
            headers.add(name: "Matched-Stub-Id", value: stub.id)
            if let name = stub.name { headers.add(name: "Matched-Stub-Name", value: name) }
            headers.add(name: "Petmock-Variant", value: variant.description)
            let response = HTTPResponse(status: .badGateway, headers: headers, body: Array(htmlErrorPage.utf8))
            return .prepared(PreparedResponse(response), delay, nil)
        case (_, .fault):
            return served
        case (_, .prepared(let prepared, let delay, let dribble)):
            var response = prepared.response
            response.headers.replaceOrAdd(name: "Petmock-Variant", value: variant.description)
            switch variant {
            case .truncated: response.body = Array(response.body.prefix(response.body.count / 2))
            case .empty: response.body = []
            case .missing, .null, .type, .rename:
                if let value = try? JSONValue(parsing: response.body) {
                    response.body = transform(value, variant).serializedBytes()
                }
            case .named, .htmlError, .slow, .reset:
                break
            }
            response.compression = StubCompiler.compression(for: response.headers, body: response.body)
            return .prepared(PreparedResponse(response), delay, dribble)
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
                case .missing(let field) where member.key == field:
                    continue
                case .null(let field) where member.key == field:
                    members.append(JSONMember(key: member.key, value: .null))
                case .type(let field) where member.key == field:
                    members.append(JSONMember(key: member.key, value: otherType(inner)))
                case .rename(let field, let new) where member.key == field:
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
