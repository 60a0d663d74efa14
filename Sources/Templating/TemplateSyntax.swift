import JSONKit

/// A compiled template: text and mustaches, blocks holding their own trees.
indirect enum TemplateSegment: Sendable {
    case text(String)
    /// `{{expr}}`, `{{{expr}}}` or `{{& expr}}`: all three write the value as it is, as
    /// WireMock's Handlebars does (`EscapingStrategy.NOOP`, its default).
    case output(TemplateExpression)
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
    /// `request.path.N`, `request.query.NAME` or `request.headers.NAME`, read straight from
    /// the request when the name `request` is the root's (see ``TemplateRenderer``); nil for
    /// every other path.
    let requestAccess: RequestAccess?

    init(parents: Int, isData: Bool, isThis: Bool, segments: [String], text: String) {
        self.parents = parents
        self.isData = isData
        self.isThis = isThis
        self.segments = segments
        self.text = text
        requestAccess =
            parents == 0 && !isData && !isThis && segments.count == 3 && segments[0] == "request"
            ? RequestAccess(segments[1], segments[2]) : nil
    }
}

/// A path into the request compiled with the template: the renderer evaluates it on the
/// ``TemplateRequest`` directly, with the same value as the member-by-member lookup and
/// without making the nodes that lookup goes through.
enum RequestAccess: Sendable, Hashable {
    /// `request.path.NAME`: a `urlPathTemplate` variable, else the segment at `index`.
    case path(name: String, index: Int?)
    /// `request.query.NAME`: the parameter's values.
    case query(String)
    /// `request.headers.NAME` (any case): the field's values.
    case header(String)

    init?(_ member: String, _ name: String) {
        switch member {
        case "path" where name != "size" && name != "length": self = .path(name: name, index: Int(name))
        case "query": self = .query(name)
        case "headers": self = .header(name)
        default: return nil
        }
    }
}

/// A helper applied to parameters and hash arguments (a class: a render reads it through the
/// tree's enums without copying, and so without retaining, each of its members).
final class TemplateCall: Sendable {
    let name: String
    let helper: TemplateHelper?
    let parameters: [TemplateExpression]
    let hash: [(key: String, value: TemplateExpression)]
    let position: TemplatePosition
    /// `jsonPath`'s expression compiled with the template when it is written as a literal (the
    /// usual case), so that a render neither parses it nor takes the shared cache's lock.
    let literalJSONPath: JSONPath?
    /// `{{jsonPath request.query.NAME '$.x'}}` and the like: a literal path without a
    /// function, applied to a compiled request access, with no hash argument; the renderer
    /// answers it without making the call's arguments (see ``TemplateRenderer``).
    let requestJSONPath: RequestJSONPath?

    init(
        name: String, helper: TemplateHelper?, parameters: [TemplateExpression],
        hash: [(key: String, value: TemplateExpression)], position: TemplatePosition
    ) {
        self.name = name
        self.helper = helper
        self.parameters = parameters
        self.hash = hash
        self.position = position
        if name == "jsonPath", parameters.count > 1, case .literal(.string(let expression)) = parameters[1] {
            literalJSONPath = try? JSONPath(expression)
        } else {
            literalJSONPath = nil
        }
        if let literalJSONPath, literalJSONPath.function == nil, helper != nil, parameters.count == 2, hash.isEmpty,
            case .path(let path, _) = parameters[0], let access = path.requestAccess,
            case .literal(.string(let expression)) = parameters[1]
        {
            requestJSONPath = RequestJSONPath(
                access: access, path: literalJSONPath, definite: literalJSONPath.isDefinite,
                expressionLength: expression.utf8.count)
        } else {
            requestJSONPath = nil
        }
    }
}

/// `{{jsonPath request.query.NAME '$.x'}}` as the renderer answers it directly (see
/// ``TemplateCall/requestJSONPath``); a class, so that a render reads it without copying
/// (and retaining) each of its members.
final class RequestJSONPath: Sendable {
    let access: RequestAccess
    let path: JSONPath
    /// Whether the path selects at most one node.
    let definite: Bool
    /// The expression's length, part of the call's work estimate.
    let expressionLength: Int

    init(access: RequestAccess, path: JSONPath, definite: Bool, expressionLength: Int) {
        self.access = access
        self.path = path
        self.definite = definite
        self.expressionLength = expressionLength
    }
}

/// What a mustache or a parameter holds.
indirect enum TemplateExpression: Sendable {
    case literal(TemplateLiteral)
    case path(TemplatePath, TemplatePosition)
    case call(TemplateCall)
}
