import CYAML
import JSONKit

/// Reads a YAML document into the JSON value it denotes, through libyaml, as OpenAPI documents
/// use YAML: the YAML 1.2 core schema (a plain `yes` and a quoted `"01"` stay strings; a plain
/// `01` is the integer 1; `~`, `null` and an empty value are null), anchors and aliases, merge
/// keys (`<<`), block and folded multi-line strings. Mapping keys are the scalars' text (`200:`
/// is the key `"200"`, as OpenAPI means it).
///
/// What JSON cannot hold is an error with its line and column, never a guess: `.inf` and `.nan`,
/// a key that is not a scalar, a duplicate key, an unknown tag, more than one document. Alias
/// expansion is bounded (a few nested aliases can otherwise denote billions of nodes), and so
/// is nesting depth.
///
/// ```swift
/// let value = try YAMLReader().read(Array("openapi: 3.1.0\npaths: {}\n".utf8))
/// value["openapi"]?.stringValue   // "3.1.0"
/// ```
package struct YAMLReader: Sendable {
    /// How deep sequences and mappings may nest.
    package var maxDepth: Int
    /// The most nodes the document may denote, aliases expanded; nil for the default of
    /// 100,000 plus 20 per input byte.
    package var maxNodes: Int?

    /// Creates a reader.
    package init(maxDepth: Int = JSONParser.defaultMaxDepth, maxNodes: Int? = nil) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    /// The JSON value of the one document in `bytes` (UTF-8, or UTF-16 with a byte order mark).
    package func read(_ bytes: [UInt8]) throws(YAMLError) -> JSONValue {
        var state = YAMLReadState(maxDepth: maxDepth, maxNodes: maxNodes ?? 100_000 + 20 * bytes.count)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(line: 1, column: 1, message: "libyaml could not start (out of memory)")
        }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> JSONValue in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { throw YAMLError(parser) }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                try state.handle(event)
            }
            guard let root = state.root else {
                throw YAMLError(line: 1, column: 1, message: "the document is empty: expected a YAML value")
            }
            return root
        }
    }
}

/// Why bytes are not a YAML document JSON can hold, and where (line and column from 1).
package struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    package let line: Int
    /// The column, from 1.
    package let column: Int
    /// What is wrong.
    package let message: String

    /// Creates an error.
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    init(_ mark: yaml_mark_t, _ message: String) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: message)
    }

    init(_ parser: yaml_parser_t) {
        let problem = parser.problem.map { String(cString: $0) } ?? "not YAML"
        var message = problem
        if let context = parser.context.map({ String(cString: $0) }) {
            message += " (\(context) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1))"
        }
        self.init(parser.problem_mark, message)
    }

    package var description: String { "line \(line), column \(column): \(message)" }
}

/// The containers being built, innermost last, and what anchors name.
struct YAMLReadState {
    /// A value and how many nodes it denotes (aliases count in full, for the budget).
    struct Node {
        var value: JSONValue
        var size: Int
        /// A scalar's text as written, for use as a mapping key.
        var keyText: String?
        /// Whether this is a plain `<<`, the merge key.
        var isMergeKey = false
    }

    enum Frame {
        case sequence(items: [JSONValue], size: Int, anchor: String?)
        case mapping(Mapping)
    }

    struct Mapping {
        var members: [(String, JSONValue)] = []
        var keys: Set<String> = []
        var pendingKey: String?
        var pendingKeyMark = yaml_mark_t()
        var isMergePending = false
        /// Mappings merged with `<<`, applied at the end where no explicit key has the name.
        var merges: [JSONObject] = []
        var size = 1
        var anchor: String?
    }

    let maxDepth: Int
    let maxNodes: Int
    var stack: [Frame] = []
    var anchors: [String: Node] = [:]
    var root: JSONValue?
    var documents = 0
    var nodes = 0

    init(maxDepth: Int, maxNodes: Int) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    mutating func handle(_ event: yaml_event_t) throws(YAMLError) {
        let mark = event.start_mark
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw YAMLError(mark, "a second document ('---'): a contract is one document")
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = Self.string(scalar.value, scalar.length)
            let tag = scalar.tag.map { String(cString: $0) }
            let value = try YAMLScalar.resolve(
                text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, tag: tag, mark: mark)
            let isMergeKey = text == "<<" && scalar.style == YAML_PLAIN_SCALAR_STYLE && tag == nil
            try add(
                Node(value: value, size: 1, keyText: text, isMergeKey: isMergeKey), anchor: Self.anchor(scalar.anchor),
                mark: mark)
        case YAML_ALIAS_EVENT:
            let name = Self.anchor(event.data.alias.anchor) ?? ""
            guard let node = anchors[name] else {
                throw YAMLError(mark, "alias '*\(name)' names no anchor defined before it")
            }
            try add(node, anchor: nil, mark: mark)
        case YAML_SEQUENCE_START_EVENT:
            try checkTag(event.data.sequence_start.tag, expected: "tag:yaml.org,2002:seq", mark: mark)
            try push(.sequence(items: [], size: 1, anchor: Self.anchor(event.data.sequence_start.anchor)), mark: mark)
        case YAML_MAPPING_START_EVENT:
            try checkTag(event.data.mapping_start.tag, expected: "tag:yaml.org,2002:map", mark: mark)
            var mapping = Mapping()
            mapping.anchor = Self.anchor(event.data.mapping_start.anchor)
            try push(.mapping(mapping), mark: mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            switch frame {
            case .sequence(let items, let size, let anchor):
                try add(Node(value: .array(items), size: size), anchor: anchor, mark: mark)
            case .mapping(let mapping):
                var members = mapping.members
                var keys = mapping.keys
                for merged in mapping.merges {
                    for member in merged.members where !keys.contains(member.key) {
                        keys.insert(member.key)
                        members.append((member.key, member.value))
                    }
                }
                try add(
                    Node(value: .object(JSONObject(members)), size: mapping.size), anchor: mapping.anchor, mark: mark)
            }
        default:
            break
        }
    }

    private mutating func push(_ frame: Frame, mark: yaml_mark_t) throws(YAMLError) {
        if case .mapping(let mapping)? = stack.last, mapping.pendingKey == nil, !mapping.isMergePending {
            throw YAMLError(mark, "a mapping key must be a scalar (text), not a sequence or mapping")
        }
        guard stack.count < maxDepth else {
            throw YAMLError(mark, "nested deeper than \(maxDepth) levels")
        }
        stack.append(frame)
    }

    /// Puts a finished value where it belongs: the root, the next item, a key or a key's value.
    private mutating func add(_ node: Node, anchor: String?, mark: yaml_mark_t) throws(YAMLError) {
        nodes += node.size
        guard nodes <= maxNodes else {
            throw YAMLError(mark, "the document denotes more than \(maxNodes) values (aliases expanded)")
        }
        if let anchor { anchors[anchor] = node }
        guard let top = stack.popLast() else {
            root = node.value
            return
        }
        switch top {
        case .sequence(var items, let size, let sequenceAnchor):
            items.append(node.value)
            stack.append(.sequence(items: items, size: size + node.size, anchor: sequenceAnchor))
        case .mapping(var mapping):
            defer { stack.append(.mapping(mapping)) }
            mapping.size += node.size
            if mapping.isMergePending {
                mapping.isMergePending = false
                mapping.merges += try Self.merged(node.value, mark: mark)
            } else if let key = mapping.pendingKey {
                mapping.pendingKey = nil
                mapping.members.append((key, node.value))
            } else {
                guard let key = node.keyText else {
                    throw YAMLError(mark, "a mapping key must be a scalar (text), not a sequence or mapping")
                }
                if node.isMergeKey {
                    mapping.isMergePending = true
                    return
                }
                guard mapping.keys.insert(key).inserted else {
                    throw YAMLError(mark, "duplicate key '\(key)' in a mapping")
                }
                mapping.pendingKey = key
                mapping.pendingKeyMark = mark
            }
        }
    }

    /// The mappings a merge key's value brings: one mapping, or a sequence of them.
    private static func merged(_ value: JSONValue, mark: yaml_mark_t) throws(YAMLError) -> [JSONObject] {
        switch value {
        case .object(let object): return [object]
        case .array(let items):
            var objects: [JSONObject] = []
            for item in items {
                guard case .object(let object) = item else {
                    throw YAMLError(mark, "a merge key ('<<') takes mappings, found \(item.kind.rawValue)")
                }
                objects.append(object)
            }
            return objects
        default:
            throw YAMLError(
                mark, "a merge key ('<<') takes a mapping or a sequence of mappings, found \(value.kind.rawValue)")
        }
    }

    private func checkTag(
        _ tag: UnsafeMutablePointer<yaml_char_t>?, expected: String, mark: yaml_mark_t
    ) throws(YAMLError) {
        guard let tag else { return }
        let name = String(cString: tag)
        guard name == expected || name == "!" else {
            throw YAMLError(mark, "the tag '\(name)' is not supported (JSON has no such value)")
        }
    }

    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, _ length: Int) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    static func anchor(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
