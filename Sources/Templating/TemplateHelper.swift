import JSONKit

/// A helper: one of the block helpers the renderer runs itself, or a function of its
/// arguments.
struct TemplateHelper: Sendable {
    enum Kind: Sendable {
        case ifBlock, unlessBlock, eachBlock, withBlock
        case function(@Sendable (inout HelperCall) throws(TemplateError) -> TemplateValue)
    }

    /// Where a block's rendered body goes when the helper is used as a block
    /// (`{{#trim}} x {{/trim}}`).
    enum BlockContent: Sendable {
        /// The body is rendered when the result is truthy, else the inverse.
        case none
        /// The body becomes the first parameter.
        case prepend
        /// The body becomes the last parameter.
        case append
    }

    let kind: Kind
    var blockContent: BlockContent = .none
    /// Whether `{{name}}` with no argument at all reads the value called `name` instead of
    /// calling the helper: for a helper that means nothing without arguments (`state`), so a
    /// template reading a field of that name renders as it did before the helper existed.
    var yieldsToPathWithoutArguments = false
}

/// One call of a helper: its arguments, and what it may change in the render.
struct HelperCall {
    var parameters: [TemplateValue]
    var hash: [(key: String, value: TemplateValue)]
    let name: String
    let position: TemplatePosition
    /// Variables the helper sets (`assign`, `formData`, `parseJson` with a name...).
    var assignments: [(String, TemplateValue)] = []
    /// How many more list elements the render may make.
    var iterationsLeft: Int
    /// The render's "now", in milliseconds since the epoch.
    let now: Int64
    /// The longest text a helper may make (the render's output limit).
    let maximumLength: Int
    /// The call's literal JSONPath, compiled with the template (see ``TemplateCall``).
    var literalJSONPath: JSONPath? = nil
    /// The render's last JSON parse (see ``TemplateRenderer/parsedJSON``).
    var parsedJSON: (text: String, value: JSONValue?)? = nil
    /// The state extension's contexts, when the render was given them (the `state` helper).
    var state: (any TemplateStateSource)? = nil

    /// JSON from a value: JSON as it is, text parsed (once per render for the same text).
    mutating func json(_ value: TemplateValue) -> JSONValue? {
        switch value {
        case .json(let json): return json
        case .array, .object: return value.jsonValue
        default:
            let text = value.text
            if let parsedJSON, parsedJSON.text == text { return parsedJSON.value }
            let parsed = try? JSONValue(parsing: text)
            parsedJSON = (text, parsed)
            return parsed
        }
    }

    /// The hash argument `key`, if given.
    func hash(_ key: String) -> TemplateValue? {
        hash.last { $0.key == key }?.value
    }

    /// The hash argument `key` as text.
    func hashText(_ key: String) -> String? { hash(key).map(\.text) }

    /// Whether the hash argument `key` is given and true (`decode=true`, `decode='true'`).
    func flag(_ key: String) -> Bool {
        guard let value = hash(key) else { return false }
        if case .string(let text) = value { return text == "true" }
        return value.isTruthy
    }

    /// The parameter at `index`, or an error naming the helper.
    func parameter(_ index: Int, _ what: String) throws(TemplateError) -> TemplateValue {
        guard index < parameters.count else {
            throw failure("expects \(what) as parameter \(index + 1), found \(parameters.count) parameter(s)")
        }
        return parameters[index]
    }

    /// An error naming the helper, at its position.
    func failure(_ message: String) -> TemplateError {
        TemplateError("'\(name)' \(message)", at: position)
    }

    /// An error worded as WireMock words it (rendered in place as `[ERROR: message]`).
    func wireMockFailure(_ message: String) -> TemplateError {
        TemplateError(message, at: position)
    }

    /// Refuses a result longer than a render may write.
    func checkLength(_ length: Int) throws(TemplateError) {
        guard length <= maximumLength else {
            throw TemplateError(
                "'\(name)' would make \(length) bytes, more than the render's limit of \(maximumLength)", at: position,
                stopsRender: true)
        }
    }

    /// Counts `count` elements against the render's bound.
    mutating func spend(_ count: Int) throws(TemplateError) {
        guard count >= 0, count <= iterationsLeft else {
            throw TemplateError(
                "'\(name)' would make more elements than the render's limit allows", at: position, stopsRender: true)
        }
        iterationsLeft -= count
    }
}
