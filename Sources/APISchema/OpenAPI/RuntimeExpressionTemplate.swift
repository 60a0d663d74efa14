/// A text holding runtime expressions in braces, as a callback's key is written:
/// `http://notify.example.com/{$request.body#/id}/done`, or one expression alone
/// (`$request.query.url`, `{$request.body#/callbackUrl}`).
///
/// ```swift
/// let template = try RuntimeExpressionTemplate("{$request.body#/callbackUrl}")
/// let url = try template.evaluate(in: exchange)
/// ```
public struct RuntimeExpressionTemplate: Sendable, Hashable {
    /// One piece of the template: literal text or an expression.
    public enum Piece: Sendable, Hashable {
        case text(String)
        case expression(RuntimeExpression)
    }

    /// The template as written.
    public let text: String
    /// Its pieces in order.
    public let pieces: [Piece]

    /// Reads a template: literal text with `{expression}` parts, or a bare expression starting with `$`.
    public init(_ text: String) throws(RuntimeExpressionError) {
        self.text = text
        if text.hasPrefix("$") {
            pieces = [.expression(try RuntimeExpression(text))]
            return
        }
        let scalars = Array(text.unicodeScalars)
        var pieces: [Piece] = []
        var literal = String.UnicodeScalarView()
        var offset = 0
        while offset < scalars.count {
            let scalar = scalars[offset]
            if scalar == "}" {
                throw RuntimeExpressionError(
                    expression: text, offset: offset, message: "expected text or '{', found '}' with no '{' before it")
            }
            guard scalar == "{" else {
                literal.append(scalar)
                offset += 1
                continue
            }
            if !literal.isEmpty { pieces.append(.text(String(literal))) }
            literal = String.UnicodeScalarView()
            var reader = RuntimeExpression.Reader(scalars, stop: "}", offset: offset + 1)
            pieces.append(.expression(try reader.expression()))
            guard reader.offset < scalars.count, scalars[reader.offset] == "}" else {
                throw reader.failure("'}' closing the expression")
            }
            offset = reader.offset + 1
        }
        if !literal.isEmpty { pieces.append(.text(String(literal))) }
        self.pieces = pieces
    }

    /// Whether the template holds at least one expression.
    public var hasExpression: Bool {
        pieces.contains { if case .expression = $0 { true } else { false } }
    }

    /// The text with each expression replaced by its value in `exchange`.
    public func evaluate(in exchange: RuntimeExchange) throws(RuntimeExpressionError) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .expression(let expression): result += try expression.evaluate(in: exchange)
            }
        }
        return result
    }
}
