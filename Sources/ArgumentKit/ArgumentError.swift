import HTTPCore

/// A command line that cannot be parsed; its description reads like swift-argument-parser's.
package enum ArgumentError: Error, Equatable, CustomStringConvertible {
    /// An option the command does not know, with the one most likely meant (`--port` for `--prot`).
    case unknownOption(String, suggestion: String? = nil)
    /// An option given without its value.
    case missingValue(option: String)
    /// A required positional argument left out.
    case missingArgument(String)
    /// More positional arguments than the command takes.
    case unexpectedArgument(String)
    /// A value of the wrong form.
    case invalidValue(option: String, value: String, expected: String)
    /// An option given more than once that takes one value.
    case duplicateOption(String)
    /// A subcommand the tool does not have.
    case unknownSubcommand(String, known: [String])
    /// No subcommand given.
    case missingSubcommand(known: [String])
    /// Options that cannot be used together, or some other rule of the command.
    case invalidCombination(String)
    /// A required option was not given.
    case missingOption(String)

    package var description: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            "Unknown option '\(option)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case .missingValue(let option): "Missing value for '\(option)'"
        case .missingArgument(let name): "Missing expected argument '<\(name)>'"
        case .unexpectedArgument(let value): "Unexpected argument '\(value)'"
        case .invalidValue(let option, let value, let expected):
            "The value '\(value)' is invalid for '\(option)': expected \(expected)"
        case .duplicateOption(let option): "Option '\(option)' given more than once"
        case .unknownSubcommand(let name, let known):
            if let nearest = StringDistance.nearest(to: name, among: known) {
                "Unknown subcommand '\(name)' (did you mean '\(nearest)'?)"
            } else {
                "Unknown subcommand '\(name)'; expected one of: \(known.joined(separator: ", "))"
            }
        case .missingSubcommand(let known): "Missing subcommand; expected one of: \(known.joined(separator: ", "))"
        case .invalidCombination(let message): message
        case .missingOption(let option): "Missing expected option '\(option)'"
        }
    }
}
