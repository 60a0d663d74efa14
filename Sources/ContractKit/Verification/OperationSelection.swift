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
            throw .matchesNothing(option: "--operation", selector: selector)
        }
        for (option, globs) in [("--include", include), ("--exclude", exclude)] {
            for glob in globs where !contract.operations.contains(where: { Self.matches(glob, $0) }) {
                throw .matchesNothing(option: option, selector: glob)
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
                throw .matchesNothing(option: "--param", selector: scope)
            }
            throw .unknownParameter(value)
        }
    }
}

/// A selector or `--param` that does not fit the contract: a usage error.
public enum SelectionProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--operation`, `--include`, `--exclude` (or a `--param`'s operation) matching no operation.
    case matchesNothing(option: String, selector: String)
    /// A `--param` whose parameter no operation (or not the one it names) has.
    case unknownParameter(ParameterValue)
    /// A `--param` that is not `[OPERATION:]NAME=VALUE`.
    case malformedParameter(String)

    public var description: String {
        switch self {
        case .matchesNothing(let option, let selector):
            "\(option) '\(selector)' matches no operation of the contract (give an operationId or 'METHOD /path')"
        case .unknownParameter(let value):
            if let operation = value.operation {
                "--param: '\(operation)' has no parameter '\(value.name)'"
            } else {
                "--param: no operation of the contract has a parameter '\(value.name)'"
            }
        case .malformedParameter(let text):
            "--param '\(text)' is not NAME=VALUE or OPERATION:NAME=VALUE"
        }
    }
}
