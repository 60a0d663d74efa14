/// A filter expression of a ``JSONPath``, such as `@.vetId > 1 && @.lastName`.
public struct JSONPathFilter: Sendable, Hashable {
    /// The expression as written between `[?(` and `)]`.
    public let text: String
    let expression: Expression

    init(text: String, expression: Expression) {
        self.text = text
        self.expression = expression
    }

    indirect enum Expression: Sendable, Hashable {
        case exists(Operand)
        case compare(Operand, Comparison, Operand)
        case not(Expression)
        case and(Expression, Expression)
        case or(Expression, Expression)
    }

    enum Operand: Sendable, Hashable {
        /// A path from the node under test (`@...`).
        case current([JSONPath.Component])
        /// A path from the document root (`$...`).
        case root([JSONPath.Component])
        case literal(JSONValue)
        case regex(pattern: String, caseInsensitive: Bool)
    }

    enum Comparison: String, Sendable, Hashable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case matches = "=~"
    }

    /// Whether `node` passes the filter; `root` is the whole document, for `$` operands.
    func accepts(_ node: JSONValue, root: JSONValue) -> Bool {
        evaluate(expression, node: node, root: root)
    }

    private func evaluate(_ expression: Expression, node: JSONValue, root: JSONValue) -> Bool {
        switch expression {
        case .exists(let operand): return !values(of: operand, node: node, root: root).isEmpty
        case .not(let inner): return !evaluate(inner, node: node, root: root)
        case .and(let lhs, let rhs):
            return evaluate(lhs, node: node, root: root) && evaluate(rhs, node: node, root: root)
        case .or(let lhs, let rhs):
            return evaluate(lhs, node: node, root: root) || evaluate(rhs, node: node, root: root)
        case .compare(let lhs, let comparison, let rhs):
            guard let left = values(of: lhs, node: node, root: root).first else { return false }
            if comparison == .matches {
                guard case .regex(let pattern, let caseInsensitive) = rhs, let text = left.stringValue else {
                    return false
                }
                guard var regex = try? Regex(pattern) else { return false }
                if caseInsensitive { regex = regex.ignoresCase() }
                return (try? regex.wholeMatch(in: text)) != nil
            }
            guard let right = values(of: rhs, node: node, root: root).first else { return false }
            return JSONPathFilter.compare(left, comparison, right)
        }
    }

    private func values(of operand: Operand, node: JSONValue, root: JSONValue) -> [JSONValue] {
        switch operand {
        case .current(let components): JSONPath(components: components).evaluate(on: node, root: root)
        case .root(let components): JSONPath(components: components).evaluate(on: root, root: root)
        case .literal(let value): [value]
        case .regex(let pattern, _): [.string(pattern)]
        }
    }

    static func compare(_ lhs: JSONValue, _ comparison: Comparison, _ rhs: JSONValue) -> Bool {
        switch comparison {
        case .equal: return lhs.isEquivalent(to: rhs)
        case .notEqual: return !lhs.isEquivalent(to: rhs)
        case .matches: return false
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let order: Int
            if let left = lhs.doubleValue, let right = rhs.doubleValue {
                order = left < right ? -1 : (left > right ? 1 : 0)
            } else if let left = lhs.stringValue, let right = rhs.stringValue {
                order = JSONWriter.compareUTF8(left, right)
            } else {
                return false
            }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }
}
