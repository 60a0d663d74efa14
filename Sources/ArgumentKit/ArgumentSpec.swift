/// One argument a command accepts: an option with a value, a flag, or a positional.
public struct ArgumentSpec: Sendable {
    /// What kind of argument this is.
    public enum Kind: Sendable {
        /// `--name VALUE` or `--name=VALUE`; `repeatable` collects every occurrence.
        case option(valueName: String, repeatable: Bool)
        /// `--name`, true when present.
        case flag
        /// A bare word in order; `optional` ones may be left out, `variadic` takes the rest.
        case positional(optional: Bool, variadic: Bool)
    }

    /// The long name without dashes (`stubs` for `--stubs`), or the positional's name.
    public let name: String
    /// A one-letter alias (`p` for `-p`), options and flags only.
    public let short: Character?
    /// The kind of argument.
    public let kind: Kind
    /// One line of help.
    public let help: String
    /// The value used when the option is not given, shown in help.
    public let defaultValue: String?
    /// Whether an option must be given (usage shows it without brackets; parsing refuses its absence).
    public var required: Bool = false

    /// An option taking a value: `--name VALUE`.
    public static func option(
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
    public static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, short: short, kind: .flag, help: help, defaultValue: nil)
    }

    /// A positional argument.
    public static func positional(
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
