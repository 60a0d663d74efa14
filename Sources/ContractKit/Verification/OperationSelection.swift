import APISchema

/// Which operations a verification covers: `--operation ID` (an `operationId` or
/// `METHOD /path`), `--include GLOB` and `--exclude GLOB` (globs over `METHOD /path` and over
/// the `operationId`: `*` any run of characters, `/` included, `?` one character).
///
/// With no `operations` and no `include` every operation is in; otherwise those matching one of
/// them. Then those matching an `exclude` are out. A selector that matches no operation of the
/// contract is a ``SelectionProblem`` naming it (a typo would otherwise check nothing and pass).
public struct OperationSelection: Sendable, Hashable {
    /// `--operation`: operationIds or `METHOD /path` names.
    public var operations: [String]
    /// `--include` globs.
    public var include: [String]
    /// `--exclude` globs.
    public var exclude: [String]

    /// Creates a selection; empty selects everything.
    public init(operations: [String] = [], include: [String] = [], exclude: [String] = []) {
        self.operations = operations
        self.include = include
        self.exclude = exclude
    }

    /// Whether nothing is selected by name or glob (every operation is in).
    public var isEmpty: Bool {
        operations.isEmpty && include.isEmpty && exclude.isEmpty
    }

    /// The contract with only the selected operations, or the first selector matching nothing.
    public func apply(to contract: Contract) throws(SelectionProblem) -> Contract {
        for selector in operations where !contract.operations.contains(where: { Self.names(selector, $0) }) {
            throw .matchesNothing(.operation, selector: selector)
        }
        for (part, globs) in [(SelectionProblem.Part.include, include), (.exclude, exclude)] {
            for glob in globs where !contract.operations.contains(where: { Self.matches(glob, $0) }) {
                throw .matchesNothing(part, selector: glob)
            }
        }
        var copy = contract
        copy.operations = contract.operations.filter { operation in
            let chosen =
                (operations.isEmpty && include.isEmpty)
                || operations.contains { Self.names($0, operation) } || include.contains { Self.matches($0, operation) }
            return chosen && !exclude.contains { Self.matches($0, operation) }
        }
        return copy
    }

    /// Whether `selector` is the operation's `operationId` or its `METHOD /path` (the method in
    /// any case).
    public static func names(_ selector: String, _ operation: ContractOperation) -> Bool {
        if selector == operation.operationId { return true }
        guard let space = selector.firstIndex(of: " ") else { return false }
        return selector[..<space].uppercased() + selector[space...] == operation.name
    }

    /// Whether the glob matches the operation's `METHOD /path` or its `operationId`.
    public static func matches(_ glob: String, _ operation: ContractOperation) -> Bool {
        Self.glob(glob, matches: operation.name) || operation.operationId.map { Self.glob(glob, matches: $0) } == true
    }

    /// `*` matches any run of characters (`/` too), `?` any one character; the rest literally.
    public static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern)
        let text = Array(text)
        var row = [Bool](repeating: false, count: text.count + 1)
        row[0] = true
        for character in pattern {
            var next = [Bool](repeating: false, count: text.count + 1)
            if character == "*" {
                next[0] = row[0]
                for index in stride(from: 1, through: text.count, by: 1) {
                    next[index] = row[index] || next[index - 1]
                }
            } else {
                for index in stride(from: 1, through: text.count, by: 1) {
                    next[index] = row[index - 1] && (character == "?" || character == text[index - 1])
                }
            }
            row = next
        }
        return row[text.count]
    }
}

/// A value for a parameter given on the command line: `--param NAME=VALUE`, or scoped to one
/// operation, `--param 'GET /repos/{owner}/{repo}:owner=octocat'` or
/// `--param getRepo:owner=octocat`. A value given this way comes before any other source;
/// one scoped to the operation before an unscoped one; several for the same parameter are
/// each called.
public struct ParameterValue: Sendable, Hashable {
    /// The operation (`operationId` or `METHOD /path`); nil for every operation with the parameter.
    public var operation: String?
    /// The parameter's name.
    public var name: String
    /// The value, as sent (percent-encoded in a path or query).
    public var value: String

    /// Creates a value.
    public init(operation: String? = nil, name: String, value: String) {
        self.operation = operation
        self.name = name
        self.value = value
    }

    /// Reads `[OPERATION:]NAME=VALUE`: the first `=` ends the name, and a `:` before it (the
    /// last one) separates the operation.
    public init(parsing text: String) throws(SelectionProblem) {
        guard let equals = text.firstIndex(of: "=") else { throw .malformedParameter(text) }
        var name = String(text[..<equals])
        value = String(text[text.index(after: equals)...])
        operation = nil
        if let colon = name.lastIndex(of: ":") {
            operation = String(name[..<colon])
            name = String(name[name.index(after: colon)...])
        }
        guard !name.isEmpty, operation?.isEmpty != true else { throw .malformedParameter(text) }
        self.name = name
    }

    /// Whether the value is for this operation's parameter of that name.
    public func applies(to operation: ContractOperation) -> Bool {
        guard operation.parameters.contains(where: { $0.name == name }) else { return false }
        return self.operation.map { OperationSelection.names($0, operation) } ?? true
    }

    /// Checks every value against the contract: each must name a parameter of some operation
    /// (of the one it is scoped to, when scoped).
    public static func check(_ values: [ParameterValue], in contract: Contract) throws(SelectionProblem) {
        for value in values where !contract.operations.contains(where: value.applies) {
            if let scope = value.operation,
                !contract.operations.contains(where: { OperationSelection.names(scope, $0) })
            {
                throw .matchesNothing(.parameter, selector: scope)
            }
            throw .unknownParameter(value)
        }
    }
}

/// A selector or parameter value that does not fit the contract: a usage error. Its
/// ``description`` names each part as the library does (`the operation 'x'`); a command line
/// names them by its options with ``message(naming:)``.
public enum SelectionProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The part of a selection a problem is in.
    public enum Part: Sendable, Hashable {
        /// ``OperationSelection/operations``.
        case operation
        /// ``OperationSelection/include``.
        case include
        /// ``OperationSelection/exclude``.
        case exclude
        /// A ``ParameterValue`` (its operation, for `matchesNothing`).
        case parameter

        /// The part as the library names it in messages.
        var name: String {
            switch self {
            case .operation: "operation"
            case .include: "include pattern"
            case .exclude: "exclude pattern"
            case .parameter: "parameter value"
            }
        }
    }

    /// A selector of `part` (or a parameter value's operation) matching no operation.
    case matchesNothing(Part, selector: String)
    /// A parameter value whose parameter no operation (or not the one it names) has.
    case unknownParameter(ParameterValue)
    /// A parameter value that is not `[OPERATION:]NAME=VALUE`.
    case malformedParameter(String)

    public var description: String {
        message { "the \($0.name)" }
    }

    /// The problem with each part named by `name` (a command line passes its option,
    /// `--operation`, so its users read the words they typed).
    public func message(naming name: (Part) -> String) -> String {
        switch self {
        case .matchesNothing(let part, let selector):
            "\(name(part)) '\(selector)' matches no operation of the contract (give an operationId or 'METHOD /path')"
        case .unknownParameter(let value):
            if let operation = value.operation {
                "\(name(.parameter)): '\(operation)' has no parameter '\(value.name)'"
            } else {
                "\(name(.parameter)): no operation of the contract has a parameter '\(value.name)'"
            }
        case .malformedParameter(let text):
            "\(name(.parameter)) '\(text)' is not NAME=VALUE or OPERATION:NAME=VALUE"
        }
    }
}
