import HTTPCore

/// A command's name, help and arguments; parses a command line into ``ParsedArguments``.
///
/// ```swift
/// let serve = CommandSpec(name: "petmock serve", abstract: "Serve stubs.", arguments: [
///     .option("stubs", value: "DIR", default: "Stubs", help: "The stub root."),
///     .flag("watch", help: "Reload stubs when files change."),
/// ])
/// let parsed = try serve.parse(["--stubs", "Other", "--watch"])
/// ```
package struct CommandSpec: Sendable {
    /// The command as typed, for example `petmock serve`.
    package let name: String
    /// One line saying what the command does.
    package let abstract: String
    /// The arguments it takes.
    package let arguments: [ArgumentSpec]
    /// Extra text printed after the argument list (examples, notes).
    package let discussion: String
    /// What each exit code means for this command, the help's one `EXIT CODES:` line.
    package let exitCodes: String

    /// What most commands' exit codes mean.
    package static let standardExitCodes = "0 success, 1 the check failed, 2 could not run, 64 usage error"

    /// The typed declarations, when the command was made from them: parsing reads each once.
    private let declarations: [any ArgumentDeclaration]

    /// Creates a command specification.
    package init(
        name: String, abstract: String, arguments: [ArgumentSpec], discussion: String = "",
        exitCodes: String = standardExitCodes
    ) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.discussion = discussion
        self.exitCodes = exitCodes
        declarations = []
    }

    /// Creates a command specification from declared arguments (``Argument``), which the
    /// command's body then reads its values through: `arguments[Serve.port]`.
    package init(
        name: String, abstract: String, arguments: [any ArgumentDeclaration], discussion: String = "",
        exitCodes: String = standardExitCodes
    ) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments.map(\.spec)
        self.discussion = discussion
        self.exitCodes = exitCodes
        declarations = arguments
    }

    /// Parses the words after the command name. `--` ends option parsing.
    package func parse(_ words: [String]) throws(ArgumentError) -> ParsedArguments {
        var defaults: [String: String] = [:]
        for argument in arguments {
            if let value = argument.defaultValue { defaults[argument.name] = value }
        }
        var result = ParsedArguments(defaults: defaults, declared: Set(arguments.map(\.name)))
        var bare: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                bare.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String?
            let spec: ArgumentSpec?
            if word.hasPrefix("--") {
                name = String(word.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                spec = arguments.first { $0.name == name && !$0.isPositional }
            } else {
                let letter = word.dropFirst()
                spec = letter.count == 1 ? arguments.first { $0.short == letter.first } : nil
                name = spec?.name ?? String(letter)
            }
            guard let spec else {
                let options = arguments.filter { !$0.isPositional }.map(\.name)
                let nearest = word.hasPrefix("--") ? StringDistance.nearest(to: name, among: options) : nil
                throw .unknownOption(word, suggestion: nearest.map { "--" + $0 })
            }
            switch spec.kind {
            case .flag:
                if inlineValue != nil {
                    throw .invalidValue(option: "--\(name)", value: inlineValue ?? "", expected: "no value")
                }
                result.flags.insert(name)
            case .option(_, let repeatable):
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < words.count else { throw .missingValue(option: "--\(name)") }
                    value = words[index]
                    index += 1
                }
                if !repeatable && result.options[name] != nil { throw .duplicateOption("--\(name)") }
                result.options[name, default: []].append(value)
            case .positional:
                throw .unknownOption(word)
            }
        }
        try assignPositionals(bare, into: &result)
        for argument in arguments where argument.required && result.options[argument.name] == nil {
            if case .option(let valueName, _) = argument.kind {
                throw .missingOption("--\(argument.name) <\(valueName.lowercased())>")
            }
        }
        for declaration in declarations { try declaration.check(result) }
        return result
    }

    private func assignPositionals(_ bare: [String], into result: inout ParsedArguments) throws(ArgumentError) {
        var remaining = bare[...]
        for argument in arguments {
            guard case .positional(let optional, let variadic) = argument.kind else { continue }
            if variadic {
                if remaining.isEmpty && !optional { throw .missingArgument(argument.name) }
                if !remaining.isEmpty { result.positionals[argument.name] = Array(remaining) }
                remaining = []
            } else if let first = remaining.first {
                result.positionals[argument.name] = [first]
                remaining = remaining.dropFirst()
            } else if !optional {
                throw .missingArgument(argument.name)
            }
        }
        if let extra = remaining.first { throw .unexpectedArgument(extra) }
    }

    /// The usage line, for example `petmock serve [--stubs DIR] [--watch]`.
    package var usage: String {
        var parts = [name]
        for argument in arguments {
            switch argument.kind {
            case .flag: parts.append("[--\(argument.name)]")
            case .option(let valueName, let repeatable):
                let word = "--\(argument.name) \(valueName)"
                parts.append((argument.required ? word : "[\(word)]") + (repeatable ? " ..." : ""))
            case .positional(let optional, let variadic):
                let word = "<\(argument.name)>" + (variadic ? " ..." : "")
                parts.append(optional ? "[\(word)]" : word)
            }
        }
        return parts.joined(separator: " ")
    }

    /// The full help text.
    package var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)", ""]
        let positionals = arguments.filter(\.isPositional)
        if !positionals.isEmpty {
            lines.append("ARGUMENTS:")
            for argument in positionals { lines.append(row("<\(argument.name)>", argument)) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for argument in arguments where !argument.isPositional {
            var label = argument.short.map { "-\($0), " } ?? ""
            label += "--\(argument.name)"
            if case .option(let valueName, _) = argument.kind { label += " <\(valueName.lowercased())>" }
            lines.append(row(label, argument))
        }
        lines.append(row("-h, --help", .flag("help", help: "Show help information.")))
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        lines.append("")
        lines.append(Self.wrapped("EXIT CODES: " + exitCodes + "."))
        return lines.joined(separator: "\n")
    }

    /// The width help text is wrapped to.
    static let helpWidth = 100

    /// A paragraph wrapped to ``helpWidth``, its later lines indented by two spaces.
    static func wrapped(_ text: String) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > helpWidth {
                lines.append(current)
                current = " "
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    /// `  LABEL   HELP (default: X)`, the help wrapped under itself; a label too long for its
    /// column gets a line of its own.
    private func row(_ label: String, _ argument: ArgumentSpec) -> String {
        let column = 28
        let suffix = argument.defaultValue.map { " (default: \($0))" } ?? ""
        let words = (argument.help + suffix).split(separator: " ", omittingEmptySubsequences: true)
        var lines: [String] = []
        var current = ""
        for word in words {
            if !current.isEmpty && column + current.count + 1 + word.count > Self.helpWidth {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        let indent = String(repeating: " ", count: column)
        let head = "  " + label
        var text: String
        if head.count < column {
            text = head + String(repeating: " ", count: column - head.count) + (lines.first ?? "")
        } else {
            text = head + "\n" + indent + (lines.first ?? "")
        }
        for line in lines.dropFirst() { text += "\n" + indent + line }
        return text
    }
}
