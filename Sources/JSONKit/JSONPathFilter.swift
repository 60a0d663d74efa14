import LinearRegex

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
        case regex(FilterRegex)
        /// A function of what a path selects (`@.things.size()`), as Jayway's JSONPath (and so
        /// WireMock) has them.
        indirect case function(Function, Operand)
    }

    /// A `/pattern/` or `/pattern/i`, compiled once when the path is parsed, matched in linear
    /// time whatever the pattern (a stub author's typo cannot wedge an event loop).
    struct FilterRegex: Sendable, Hashable {
        let pattern: String
        let caseInsensitive: Bool
        let regex: LinearTimeRegex

        init(pattern: String, caseInsensitive: Bool) throws(RegexError) {
            self.pattern = pattern
            self.caseInsensitive = caseInsensitive
            regex = try LinearTimeRegex(caseInsensitive ? "(?i)" + pattern : pattern)
        }

        static func == (lhs: FilterRegex, rhs: FilterRegex) -> Bool {
            lhs.pattern == rhs.pattern && lhs.caseInsensitive == rhs.caseInsensitive
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(pattern)
            hasher.combine(caseInsensitive)
        }
    }

    /// The functions a filter may call on a path's value, and a path may end with.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        /// An array's element count, an object's member count, a string's length.
        case size
        /// The same as `size` (Jayway's name for strings and arrays).
        case length
        /// The least number of an array.
        case min
        /// The greatest number of an array.
        case max
        /// The mean of an array's numbers.
        case avg
        /// The sum of an array's numbers.
        case sum

        func apply(_ value: JSONValue) -> JSONValue? {
            switch self {
            case .size, .length:
                switch value {
                case .array(let elements): return .int(Int64(elements.count))
                case .object(let object): return .int(Int64(object.count))
                case .string(let text): return .int(Int64(text.count))
                default: return nil
                }
            case .min, .max, .avg, .sum:
                guard case .array(let elements) = value else { return nil }
                var numbers: [Double] = []
                for element in elements {
                    switch element {
                    case .int(let number): numbers.append(Double(number))
                    case .number(let number): numbers.append(number.doubleValue)
                    default: return nil
                    }
                }
                guard !numbers.isEmpty || self == .sum else { return nil }
                let result: Double =
                    switch self {
                    case .min: numbers.min() ?? 0
                    case .max: numbers.max() ?? 0
                    case .avg: numbers.reduce(0, +) / Double(numbers.count)
                    default: numbers.reduce(0, +)
                    }
                if result == result.rounded(), abs(result) < 9e15 { return .int(Int64(result)) }
                return JSONNumber(result).map(JSONValue.number)
            }
        }
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
                // As Jayway's JsonPath (WireMock's): a number or Boolean is matched as its text.
                guard case .regex(let compiled) = rhs else { return false }
                let text: String
                switch left {
                case .string(let string): text = string
                case .int, .number, .bool: text = left.serialized()
                default: return false
                }
                return compiled.regex.wholeMatches(text)
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
        case .regex(let compiled): [.string(compiled.pattern)]
        case .function(let function, let inner):
            values(of: inner, node: node, root: root).first.flatMap(function.apply).map { [$0] } ?? []
        }
    }

    /// Equality as Jayway's JsonPath (WireMock's) has it: JSON equivalence, and a number equals
    /// a string holding the same number (`@.price == '2.30'` selects `2.3`).
    static func equivalent(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int, .string(let text)), (.number, .string(let text)):
            guard let parsed = try? JSONValue(parsing: text), parsed.doubleValue != nil else { return false }
            return lhs.isEquivalent(to: parsed)
        case (.string, .int), (.string, .number): return equivalent(rhs, lhs)
        default: return lhs.isEquivalent(to: rhs)
        }
    }

    static func compare(_ lhs: JSONValue, _ comparison: Comparison, _ rhs: JSONValue) -> Bool {
        switch comparison {
        case .equal: return equivalent(lhs, rhs)
        case .notEqual: return !equivalent(lhs, rhs)
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
