/// Something a ``CommandSpec`` lists: an ``Argument`` of any value type.
package protocol ArgumentDeclaration: Sendable {
    /// How the argument is parsed and shown in help.
    var spec: ArgumentSpec { get }
    /// Reads the value once, so that parsing refuses a bad one (a number out of range, a word
    /// not among the choices) before the command runs.
    func check(_ arguments: ParsedArguments) throws(ArgumentError)
}

/// An argument declared once, with its name, help, default and type, and read through that
/// declaration:
///
/// ```swift
/// enum Serve {
///     static let stubs = Argument<String>.option("stubs", value: "DIR", default: "Stubs", help: "The stub folder.")
///     static let port = Argument<Int>.number("port", short: "p", default: 8080, in: 0...65535, help: "The port.")
///     static let watch = Argument<Bool>.flag("watch", help: "Reload on changes.")
///     static let spec = CommandSpec(name: "petmock serve", abstract: "…", arguments: [stubs, port, watch])
/// }
/// let port = arguments[Serve.port]   // an Int, its range checked when parsed, 8080 when not given
/// ```
///
/// A mistyped argument is a compile error rather than a lookup that quietly finds nothing, and
/// the default a reader gets is the one help shows.
package struct Argument<Value: Sendable>: ArgumentDeclaration {
    /// How the argument is parsed and shown in help.
    package let spec: ArgumentSpec
    private let read: @Sendable (ParsedArguments) throws(ArgumentError) -> Value

    /// An argument read by `read` from what the command line gave.
    package init(spec: ArgumentSpec, read: @escaping @Sendable (ParsedArguments) throws(ArgumentError) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// The value the command line gave (or the default).
    package func value(in arguments: ParsedArguments) throws(ArgumentError) -> Value {
        try read(arguments)
    }

    package func check(_ arguments: ParsedArguments) throws(ArgumentError) {
        _ = try read(arguments)
    }

    /// The same argument, its value turned into another by `transform` (which may refuse it).
    package func map<Other: Sendable>(
        _ transform: @escaping @Sendable (Value) throws(ArgumentError) -> Other
    ) -> Argument<Other> {
        let read = read
        return Argument<Other>(spec: spec) { arguments throws(ArgumentError) in try transform(read(arguments)) }
    }

    /// The option's name as typed, for messages: `--port`.
    package var flagName: String { "--\(spec.name)" }
}

extension ParsedArguments {
    /// The value of an argument the command declares. Parsing read every declared argument
    /// already and refused bad values, so this cannot fail; reading an argument the command does
    /// not declare is a programming error and stops the program, naming it.
    package subscript<Value>(_ argument: Argument<Value>) -> Value {
        precondition(
            declared.contains(argument.spec.name),
            "\(argument.flagName) is read, but the command does not declare it (add it to its CommandSpec)")
        do {
            return try argument.value(in: self)
        } catch {
            preconditionFailure("\(argument.flagName) was checked when parsed, yet fails now: \(error)")
        }
    }

    /// Whether the command line gave the argument (rather than its default applying).
    package func isPresent(_ argument: some ArgumentDeclaration) -> Bool {
        isPresent(argument.spec.name)
    }
}

extension Argument where Value == String {
    /// `--name VALUE`, `default` when not given.
    package static func option(
        _ name: String, short: Character? = nil, value: String = "VALUE", default defaultValue: String, help: String
    ) -> Argument {
        Argument(spec: .option(name, short: short, value: value, default: defaultValue, help: help)) { arguments in
            arguments.value(name) ?? defaultValue
        }
    }

    /// `--name VALUE`, which must be given.
    package static func required(_ name: String, value: String = "VALUE", help: String) -> Argument {
        Argument(spec: .option(name, value: value, required: true, help: help)) { arguments throws(ArgumentError) in
            guard let text = arguments.value(name) else {
                throw .missingOption("--\(name) <\(value.lowercased())>")
            }
            return text
        }
    }

    /// `--name URL`, which must be given: an `http://` or `https://` URL with a host.
    package static func requiredHTTPURL(_ name: String, value: String = "URL", help: String) -> Argument {
        Argument(spec: .option(name, value: value, required: true, help: help)) { arguments throws(ArgumentError) in
            guard let url = try arguments.httpURL(name) else {
                throw .missingOption("--\(name) <\(value.lowercased())>")
            }
            return url
        }
    }

    /// A positional argument that must be given.
    package static func positional(_ name: String, help: String) -> Argument {
        Argument(spec: .positional(name, help: help)) { arguments throws(ArgumentError) in
            guard let text = arguments.value(name) else { throw .missingArgument(name) }
            return text
        }
    }
}

extension Argument where Value == String? {
    /// `--name VALUE`, nil when not given.
    package static func option(
        _ name: String, short: Character? = nil, value: String = "VALUE", help: String
    )
        -> Argument
    {
        Argument(spec: .option(name, short: short, value: value, help: help)) { arguments in arguments.value(name) }
    }

    /// `--name URL`: an `http://` or `https://` URL with a host, nil when not given.
    package static func httpURL(_ name: String, value: String = "URL", help: String) -> Argument {
        Argument(spec: .option(name, value: value, help: help)) { arguments throws(ArgumentError) in
            try arguments.httpURL(name)
        }
    }

    /// A positional argument that may be left out.
    package static func optionalPositional(_ name: String, help: String) -> Argument {
        Argument(spec: .positional(name, optional: true, help: help)) { arguments in arguments.value(name) }
    }
}

extension Argument where Value == Int {
    /// `--name N`: a whole number in `range`, `default` when not given.
    package static func number(
        _ name: String, short: Character? = nil, value: String = "N", default defaultValue: Int,
        in range: ClosedRange<Int>, help: String
    ) -> Argument {
        Argument(spec: .option(name, short: short, value: value, default: String(defaultValue), help: help)) {
            arguments throws(ArgumentError) in
            try arguments.int(name, in: range) ?? defaultValue
        }
    }
}

extension Argument where Value == Int? {
    /// `--name N`: a whole number in `range`, nil when not given.
    package static func number(
        _ name: String, short: Character? = nil, value: String = "N", in range: ClosedRange<Int>, help: String
    ) -> Argument {
        Argument(spec: .option(name, short: short, value: value, help: help)) { arguments throws(ArgumentError) in
            try arguments.int(name, in: range)
        }
    }
}

extension Argument where Value == Bool {
    /// `--name`: true when given.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> Argument {
        Argument(spec: .flag(name, short: short, help: help)) { arguments in arguments.flag(name) }
    }
}

extension Argument where Value == [String] {
    /// `--name VALUE`, repeatable: every value given, in order.
    package static func repeated(
        _ name: String, short: Character? = nil, value: String = "VALUE", help: String
    )
        -> Argument
    {
        Argument(spec: .option(name, short: short, value: value, repeatable: true, help: help)) { arguments in
            arguments.values(name)
        }
    }
}

extension Argument {
    /// `--name VALUE`, repeatable, each value read by `parse`; a value it refuses is a usage
    /// error naming the option, with the refusal as what was expected.
    package static func repeated<Element, Failure: Error & CustomStringConvertible>(
        _ name: String, short: Character? = nil, value: String = "VALUE", help: String,
        parsedBy parse: @escaping @Sendable (String) throws(Failure) -> Element
    ) -> Argument where Value == [Element] {
        Argument(spec: .option(name, short: short, value: value, repeatable: true, help: help)) {
            arguments throws(ArgumentError) in
            try arguments.values(name, parsedBy: parse)
        }
    }

    /// `--name WORD`: one of a fixed set of words (an enum's raw values), `default` when not given.
    package static func choice(
        _ name: String, value: String = "WORD", default defaultValue: Value, help: String
    )
        -> Argument
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        Argument(spec: .option(name, value: value, default: defaultValue.rawValue, help: help)) {
            arguments throws(ArgumentError) in
            let words = Value.allCases.map(\.rawValue)
            guard let word = try arguments.choice(name, from: words) else { return defaultValue }
            return Value(rawValue: word) ?? defaultValue
        }
    }

    /// `--name WORD`: one of a fixed set of words (an enum's raw values), nil when not given.
    package static func choice<Word>(_ name: String, value: String = "WORD", help: String) -> Argument
    where Value == Word?, Word: RawRepresentable & CaseIterable & Sendable, Word.RawValue == String {
        Argument(spec: .option(name, value: value, help: help)) { arguments throws(ArgumentError) in
            try arguments.choice(name, from: Word.allCases.map(\.rawValue)).flatMap(Word.init(rawValue:))
        }
    }
}
