import JSONKit

/// A value a template reads or a helper returns: scalars, lists, objects, JSON (kept as it
/// is, read lazily), dates, and nodes that compute their members on demand (the request).
package enum TemplateValue {
    /// Nothing: renders as empty text, is falsy.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// Text.
    case string(String)
    /// A list (renders as `[a, b]`, as Java's lists do).
    case array([TemplateValue])
    /// An object, its members in order (renders as `{a=b}`, as Java's maps do).
    case object([(key: String, value: TemplateValue)])
    /// A JSON value (renders as JSON text unless it is a scalar).
    case json(JSONValue)
    /// An instant (renders in ISO 8601, or in the format it carries).
    case date(TemplateDate)
    /// A value whose members are computed when read.
    case node(any TemplateNode)

    /// The text the value renders as.
    package var text: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return Self.javaText(value)
        case .string(let value): return value
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { "\($0.key)=\($0.value.text)" }.joined(separator: ", ") + "}"
        case .json(let value):
            switch value {
            case .null: return ""
            case .string(let text): return text
            default: return value.serialized()
            }
        case .date(let date): return date.text
        case .node(let node): return node.text
        }
    }

    /// A double as Java writes it (`2.0`, `0.5`).
    static func javaText(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) + ".0" }
        return String(value)
    }

    /// Whether `{{#if}}` takes the value as true: not null, false, empty text, an empty list
    /// or zero (as Handlebars.java decides).
    package var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .double(let value): return value != 0
        case .string(let value): return !value.isEmpty
        case .array(let items): return !items.isEmpty
        case .object: return true
        case .json(let value):
            switch value {
            case .null: return false
            case .bool(let flag): return flag
            case .string(let text): return !text.isEmpty
            case .array(let items): return !items.isEmpty
            case .int(let number): return number != 0
            case .number(let number): return (Double(number.text) ?? 1) != 0
            case .object: return true
            }
        case .date: return true
        case .node(let node): return node.isTruthy
        }
    }

    /// The member `name` (an object's key, a list's index, a node's member), or nil.
    package func member(_ name: String) -> TemplateValue? {
        switch self {
        case .array(let items):
            if name == "size" || name == "length" { return .int(items.count) }
            if name == "first" { return items.first }
            if name == "last" { return items.last }
            guard let index = Self.listIndex(name, count: items.count) else { return nil }
            return items[index]
        case .object(let members): return members.first { $0.key == name }?.value
        case .json(let value):
            switch value {
            case .object(let object): return object[name].map(TemplateValue.json)
            case .array(let items):
                guard let index = Int(name), items.indices.contains(index) else { return nil }
                return .json(items[index])
            default: return nil
            }
        case .node(let node): return node.member(name)
        default: return nil
        }
    }

    /// A list index from a member name: `0` is the first; a negative `-n` counts back from
    /// the one before the last, as WireMock's lists do (`-1` is the second to last).
    static func listIndex(_ name: String, count: Int) -> Int? {
        guard let index = Int(name) else { return nil }
        let resolved = index < 0 ? count - 1 + index : index
        return resolved >= 0 && resolved < count ? resolved : nil
    }

    /// What giving this value to a helper costs against ``TemplateLimits/maximumWork``: its
    /// bytes of text, or its elements.
    var workEstimate: Int {
        switch self {
        case .string(let text), .json(.string(let text)): return text.utf8.count
        case .array(let items): return items.count
        case .object(let members): return members.count
        case .json(.array(let items)): return items.count
        case .json(.object(let object)): return object.count
        default: return 1
        }
    }

    /// The elements `{{#each}}` visits: (key, value) pairs, keys nil for lists.
    package var entries: [(key: String?, value: TemplateValue)] {
        switch self {
        case .array(let items): return items.map { (nil, $0) }
        case .object(let members): return members.map { ($0.key, $0.value) }
        case .json(.array(let items)): return items.map { (nil, .json($0)) }
        case .json(.object(let object)): return object.members.map { ($0.key, .json($0.value)) }
        case .node(let node): return node.entries
        default: return []
        }
    }

    /// The number `size` reports: characters of text, elements of a list or object.
    package var size: Int {
        switch self {
        case .string(let text): return text.count
        case .array(let items): return items.count
        case .object(let members): return members.count
        case .json(.array(let items)): return items.count
        case .json(.object(let object)): return object.count
        case .json(.string(let text)): return text.count
        case .node(let node): return node.entries.count
        case .null: return 0
        default: return text.count
        }
    }

    /// The value as a number, if it is one or is text that reads as one.
    package var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .json(.int(let value)): return Double(value)
        case .json(.number(let value)): return Double(value.text)
        case .date(let date):
            switch date.format {
            case "unix": return Double(date.milliseconds / 1000)
            default: return Double(date.milliseconds)
            }
        case .bool: return nil
        default: return Double(text.trimmingSpaces)
        }
    }

    /// The value as an integer, if it is a whole number or text that reads as one.
    package var integer: Int? {
        switch self {
        case .int(let value): return value
        case .json(.int(let value)): return Int(exactly: value)
        default:
            if let value = Int(text.trimmingSpaces) { return value }
            guard let number, number == number.rounded(), abs(number) < 9e18 else { return nil }
            return Int(number)
        }
    }

    /// The value as JSON (for `toJson`).
    package var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(Int64(value))
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let items): return .array(items.map(\.jsonValue))
        case .object(let members): return .object(JSONObject(members.map { ($0.key, $0.value.jsonValue) }))
        case .json(let value): return value
        case .date(let date): return .string(date.text)
        case .node(let node):
            let entries = node.entries
            if entries.isEmpty { return .string(node.text) }
            if entries.allSatisfy({ $0.key == nil }) { return .array(entries.map(\.value.jsonValue)) }
            return .object(JSONObject(entries.map { ($0.key ?? "", $0.value.jsonValue) }))
        }
    }
}

/// A value whose members are worked out when a template reads them (the request model).
package protocol TemplateNode: AnyObject {
    /// What it renders as.
    var text: String { get }
    /// The member `name` (for `[n]`, the name is the number's text).
    func member(_ name: String) -> TemplateValue?
    /// What `{{#each}}` visits.
    var entries: [(key: String?, value: TemplateValue)] { get }
}

extension TemplateNode {
    /// Whether the node counts as true: when it renders as something.
    package var isTruthy: Bool { !text.isEmpty || !entries.isEmpty }
}

extension String {
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
