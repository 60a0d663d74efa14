/// One argument a command accepts: an option with a value, a flag, or a positional.
package struct ArgumentSpec: Sendable {
    /// What kind of argument this is.
    package enum Kind: Sendable {
        /// `--name VALUE` or `--name=VALUE`; `repeatable` collects every occurrence.
        case option(valueName: String, repeatable: Bool)
        /// `--name`, true when present.
        case flag
        /// A bare word in order; `optional` ones may be left out, `variadic` takes the rest.
        case positional(optional: Bool, variadic: Bool)
    }

    /// The long name without dashes (`stubs` for `--stubs`), or the positional's name.
    package let name: String
    /// A one-letter alias (`p` for `-p`), options and flags only.
    package let short: Character?
    /// The kind of argument.
    package let kind: Kind
    /// One line of help.
    package let help: String
    /// The value used when the option is not given, shown in help.
    package let defaultValue: String?
    /// Whether an option must be given (usage shows it without brackets; parsing refuses its absence).
    package var required: Bool = false

    /// An option taking a value: `--name VALUE`.
    package static func option(
        _ name: String, short: Character? = nil, value: String = "VALUE", default defaultValue: String? = nil,
        repeatable: Bool = false, required: Bool = false, help: String
    ) -> ArgumentSpec {
        var spec = ArgumentSpec(
            name: name, short: short, kind: .option(valueName: value, repeatable: repeatable), help: help,
            defaultValue: defaultValue)
        spec.required = required
        return spec
    }

    /// A flag: `--name`.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, short: short, kind: .flag, help: help, defaultValue: nil)
    }

    /// A positional argument.
    package static func positional(
        _ name: String, optional: Bool = false, variadic: Bool = false, help: String
    ) -> ArgumentSpec {
        ArgumentSpec(
            name: name, short: nil, kind: .positional(optional: optional, variadic: variadic), help: help,
            defaultValue: nil)
    }

    var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }
}
