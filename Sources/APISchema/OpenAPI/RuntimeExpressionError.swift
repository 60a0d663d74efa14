/// Why a runtime expression could not be read, or had no value in an exchange.
public struct RuntimeExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The expression (or template) as written.
    public var expression: String
    /// Where reading stopped, in Unicode scalars from the start; nil when the expression was
    /// read and the exchange lacks its value.
    public var offset: Int?
    /// What was expected and found, or what the exchange lacks.
    public var message: String

    /// Creates an error.
    public init(expression: String, offset: Int?, message: String) {
        self.expression = expression
        self.offset = offset
        self.message = message
    }

    /// `'$request.bdy': at offset 9: expected ...`.
    public var description: String {
        let quoted = "'\(expression.prefix(200))'"
        guard let offset else { return "\(quoted): \(message)" }
        return "\(quoted): at offset \(offset): \(message)"
    }
}
