import HTTPCore
import JSONKit

/// An OpenAPI runtime expression (OpenAPI 3.0 and 3.1, "Runtime Expressions"): a value taken
/// from an exchange, as a callback's URL or a link's parameter names it.
///
/// ```swift
/// let expression = try RuntimeExpression("$request.body#/callbackUrl")
/// let url = try expression.evaluate(in: exchange)
/// ```
public enum RuntimeExpression: Sendable, Hashable {
    /// Which message of the exchange a source is read from.
    public enum Message: String, Sendable, Hashable {
        case request
        case response
    }

    /// `$url`: the request's URL.
    case url
    /// `$method`: the request's method.
    case method
    /// `$statusCode`: the response's status.
    case statusCode
    /// `$request.header.NAME`, `$response.header.NAME`.
    case header(Message, String)
    /// `$request.query.NAME` (the response has none).
    case query(Message, String)
    /// `$request.path.NAME` (the response has none).
    case path(Message, String)
    /// `$request.body` or `$response.body`, with a JSON pointer into it (empty: the whole body).
    case body(Message, pointer: [String])

    /// Reads an expression; the whole text must be one.
    public init(_ text: String) throws(RuntimeExpressionError) {
        var reader = Reader(Array(text.unicodeScalars), stop: nil)
        self = try reader.expression()
        guard reader.atEnd else { throw reader.failure("the end of the expression") }
    }

    /// The expression as written.
    public var description: String {
        switch self {
        case .url: "$url"
        case .method: "$method"
        case .statusCode: "$statusCode"
        case .header(let message, let name): "$\(message.rawValue).header.\(name)"
        case .query(let message, let name): "$\(message.rawValue).query.\(name)"
        case .path(let message, let name): "$\(message.rawValue).path.\(name)"
        case .body(let message, let pointer):
            pointer.isEmpty
                ? "$\(message.rawValue).body"
                : "$\(message.rawValue).body#"
                    + pointer.map { "/" + JSONPointerToken.escape($0) }.joined()
        }
    }

    /// The expression's value in `exchange`: a string as it is, any other JSON value as JSON;
    /// an error naming what is missing when the exchange does not have it.
    public func evaluate(in exchange: RuntimeExchange) throws(RuntimeExpressionError) -> String {
        func missing(_ what: String) -> RuntimeExpressionError {
            RuntimeExpressionError(expression: description, offset: nil, message: what)
        }
        switch self {
        case .url: return exchange.url
        case .method: return exchange.method
        case .statusCode:
            guard let status = exchange.statusCode else { throw missing("there is no response") }
            return String(status)
        case .header(let message, let name):
            guard let value = exchange.message(message)?.headers.first(name: name) else {
                throw missing("the \(message.rawValue) has no header '\(name)'")
            }
            return value
        case .query(let message, let name):
            guard let value = exchange.message(message)?.query.first(where: { $0.name == name })?.value else {
                throw missing("the \(message.rawValue) has no query parameter '\(name)'")
            }
            return value
        case .path(let message, let name):
            guard let value = exchange.message(message)?.pathValues[name] else {
                throw missing("the \(message.rawValue) has no path parameter '\(name)'")
            }
            return value
        case .body(let message, let pointer):
            guard let part = exchange.message(message) else { throw missing("there is no \(message.rawValue)") }
            guard !pointer.isEmpty else { return String(decoding: part.body, as: UTF8.self) }
            guard let root = part.json() else { throw missing("the \(message.rawValue) body is not JSON") }
            var value = root
            for (depth, token) in pointer.enumerated() {
                let next: JSONValue?
                switch value {
                case .object(let object): next = object[token]
                case .array(let elements):
                    let digits = !token.isEmpty && token.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                    let index = digits && (token == "0" || !token.hasPrefix("0")) ? Int(token) : nil
                    // Not `? elements[i] : nil`: JSONValue takes `nil` as its `null`.
                    if let index, elements.indices.contains(index) { next = elements[index] } else { next = nil }
                default: next = nil
                }
                guard let next else {
                    let at = pointer.prefix(depth + 1).map { "/" + $0 }.joined()
                    throw missing("the \(message.rawValue) body has nothing at '\(at)'")
                }
                value = next
            }
            if case .string(let text) = value { return text }
            return value.serialized()
        }
    }
}

extension RuntimeExpression {
    /// Reads expressions from text, one character at a time, up to `stop` (`}` inside a
    /// template) or the end.
    struct Reader {
        let scalars: [Unicode.Scalar]
        let stop: Unicode.Scalar?
        var offset = 0

        init(_ scalars: [Unicode.Scalar], stop: Unicode.Scalar?, offset: Int = 0) {
            self.scalars = scalars
            self.stop = stop
            self.offset = offset
        }

        var atEnd: Bool { offset == scalars.count || scalars[offset] == stop }

        func failure(_ expected: String) -> RuntimeExpressionError {
            let found =
                offset < scalars.count
                ? "'" + String(String.UnicodeScalarView(scalars[offset...].prefix(20))) + "'" : "the end"
            return RuntimeExpressionError(
                expression: String(String.UnicodeScalarView(scalars)), offset: offset,
                message: "expected \(expected), found \(found)")
        }

        mutating func take(_ literal: String) -> Bool {
            let wanted = Array(literal.unicodeScalars)
            guard scalars.count - offset >= wanted.count, Array(scalars[offset..<offset + wanted.count]) == wanted
            else { return false }
            offset += wanted.count
            return true
        }

        /// The rest up to the stop or the end.
        mutating func rest() -> String {
            var text = String.UnicodeScalarView()
            while !atEnd {
                text.append(scalars[offset])
                offset += 1
            }
            return String(text)
        }

        mutating func expression() throws(RuntimeExpressionError) -> RuntimeExpression {
            if take("$url") { return .url }
            if take("$method") { return .method }
            if take("$statusCode") { return .statusCode }
            let message: Message
            if take("$request.") {
                message = .request
            } else if take("$response.") {
                message = .response
            } else {
                throw failure("'$url', '$method', '$statusCode', '$request.' or '$response.'")
            }
            if take("header.") {
                let start = offset
                let name = rest()
                guard !name.isEmpty, name.utf8.allSatisfy(\.isTokenCharacter) else {
                    offset = start
                    throw failure("a header name (token characters)")
                }
                return .header(message, name)
            }
            if message == .request, take("query.") { return .query(message, rest()) }
            if message == .request, take("path.") { return .path(message, rest()) }
            if take("body") {
                if atEnd { return .body(message, pointer: []) }
                guard take("#") else { throw failure("'#' and a JSON pointer, or the end") }
                return .body(message, pointer: try pointer())
            }
            throw failure(message == .request ? "'header.', 'query.', 'path.' or 'body'" : "'header.' or 'body'")
        }

        /// A JSON pointer (RFC 6901): `/`-separated tokens, `~0` for `~` and `~1` for `/`.
        private mutating func pointer() throws(RuntimeExpressionError) -> [String] {
            var tokens: [String] = []
            while !atEnd {
                guard take("/") else { throw failure("'/' (a JSON pointer)") }
                var token = String.UnicodeScalarView()
                while !atEnd && scalars[offset] != "/" {
                    if scalars[offset] == "~" {
                        if take("~0") {
                            token.append("~")
                        } else if take("~1") {
                            token.append("/")
                        } else {
                            throw failure("'~0' or '~1' (an escape in a JSON pointer)")
                        }
                        continue
                    }
                    token.append(scalars[offset])
                    offset += 1
                }
                tokens.append(String(token))
            }
            return tokens
        }
    }
}
