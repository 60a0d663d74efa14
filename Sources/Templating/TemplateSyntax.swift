/// A compiled template: text and mustaches, blocks holding their own trees.
indirect enum TemplateSegment: Sendable {
    case text(String)
    /// `{{expr}}` (escaped) or `{{{expr}}}` / `{{& expr}}` (raw).
    case output(TemplateExpression, escaped: Bool)
    case block(TemplateBlock)
}

/// `{{#name params}}body{{else}}inverse{{/name}}`.
struct TemplateBlock: Sendable {
    let call: TemplateCall
    let blockParameters: [String]
    let body: [TemplateSegment]
    let inverse: [TemplateSegment]
}

/// A literal written in a template.
enum TemplateLiteral: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
}

/// A path such as `request.path.[0]`, `this`, `../name`, `@index`.
struct TemplatePath: Sendable, Hashable {
    /// How many `../` lead it.
    let parents: Int
    /// Whether it starts with `@` (a data variable such as `@index`).
    let isData: Bool
    /// Whether it starts at the current context (`this`, `./`).
    let isThis: Bool
    /// The member names after the start.
    let segments: [String]
    /// As written.
    let text: String
}

/// A helper applied to parameters and hash arguments.
struct TemplateCall: Sendable {
    let name: String
    let helper: TemplateHelper?
    let parameters: [TemplateExpression]
    let hash: [(key: String, value: TemplateExpression)]
    let position: TemplatePosition
}

/// What a mustache or a parameter holds.
indirect enum TemplateExpression: Sendable {
    case literal(TemplateLiteral)
    case path(TemplatePath, TemplatePosition)
    case call(TemplateCall)
}
