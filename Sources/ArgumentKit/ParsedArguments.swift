/// The values a command line gave, looked up by argument name.
package struct ParsedArguments: Sendable {
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String: [String]] = [:]
    let defaults: [String: String]
    /// The names of every argument the command declares.
    let declared: Set<String>

    /// The value of an option or positional, else its default, else nil.
    func value(_ name: String) -> String? {
        options[name]?.last ?? positionals[name]?.first ?? defaults[name]
    }

    /// Every value given for a repeatable option or variadic positional.
    func values(_ name: String) -> [String] {
        options[name] ?? positionals[name] ?? []
    }

    /// Every value given for a repeatable option, each read by `parse`; a value `parse` refuses
    /// is an ``ArgumentError/invalidValue(option:value:expected:)`` with the error's description
    /// as what was expected.
    func values<Value, Failure: Error & CustomStringConvertible>(
        _ name: String, parsedBy parse: (String) throws(Failure) -> Value
    ) throws(ArgumentError) -> [Value] {
        var parsed: [Value] = []
        for text in values(name) {
            do {
                parsed.append(try parse(text))
            } catch {
                throw .invalidValue(option: "--\(name)", value: text, expected: error.description)
            }
        }
        return parsed
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// Whether an option or positional was given on the command line (not defaulted).
    func isPresent(_ name: String) -> Bool {
        options[name] != nil || positionals[name] != nil || flags.contains(name)
    }

    /// The value as a whole number in `range`, or nil when absent with no default.
    func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(ArgumentError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let expected =
                range == Int.min...Int.max
                ? "a whole number" : "a whole number from \(range.lowerBound) to \(range.upperBound)"
            throw .invalidValue(option: "--\(name)", value: text, expected: expected)
        }
        return number
    }

    /// The value as an `http://` or `https://` URL with a host (a base URL), or nil when not
    /// given; anything else (empty, no scheme, spaces, control characters) is a usage error.
    func httpURL(_ name: String) throws(ArgumentError) -> String? {
        guard let value = value(name) else { return nil }
        let lowered = value.lowercased()
        let scheme = ["http://", "https://"].first { lowered.hasPrefix($0) }
        let rest = scheme.map { value.dropFirst($0.count) } ?? ""
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let printable = value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
        guard scheme != nil, !host.isEmpty, !host.hasPrefix(":"), printable else {
            throw .invalidValue(
                option: "--\(name)", value: value,
                expected: "a URL such as http://127.0.0.1:8081/api (http or https, with a host)")
        }
        return value
    }

    /// The value as one of a fixed set of words, or nil when absent with no default.
    func choice(_ name: String, from choices: [String]) throws(ArgumentError) -> String? {
        guard let text = value(name) else { return nil }
        guard choices.contains(text) else {
            throw .invalidValue(
                option: "--\(name)", value: text,
                expected: "one of \(choices.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return text
    }
}
