extension JSONPath {
    /// The nodes the path selects, in document order; empty when it selects nothing.
    public func evaluate(on value: JSONValue) -> [JSONValue] {
        evaluate(on: value, root: value)
    }

    /// The first node ``evaluate(on:)`` gives, found without making the list when the path is
    /// keys and indices only with no function (the usual `$.name`, `$.items[0].id`).
    public func firstNode(in value: JSONValue) -> JSONValue? {
        guard function == nil else { return evaluate(on: value).first }
        var node = value
        for component in components {
            switch component {
            case .key(let key):
                guard case .object(let object) = node, let member = object[key] else { return nil }
                node = member
            case .index(let index):
                guard case .array(let elements) = node else { return nil }
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else { return nil }
                node = elements[position]
            default: return evaluate(on: value).first
            }
        }
        return node
    }

    /// Where the nodes the path selects are, in the order ``evaluate(on:)`` gives them, each
    /// as a definite path (keys and non-negative indices), so that each names one place to
    /// read or change; empty when the path selects nothing.
    ///
    /// ```swift
    /// try JSONPath("$[*].vetId").locations(in: pets)   // [$[0].vetId, $[1].vetId]
    /// ```
    public func locations(in value: JSONValue) -> [JSONPath] {
        // A function's result is computed, not a place in the document.
        guard function == nil else { return [] }
        return select(from: LocatedNode(components: [], json: value), root: value).map {
            JSONPath(components: $0.components)
        }
    }

    /// Whether the path selects at least one node: WireMock's `matchesJsonPath` without a
    /// sub-matcher.
    public func matches(_ value: JSONValue) -> Bool {
        !evaluate(on: value).isEmpty
    }

    func evaluate(on value: JSONValue, root: JSONValue) -> [JSONValue] {
        let selected = select(from: value, root: root)
        guard let function else { return selected }
        // As Jayway: a definite path's node, or the list an indefinite path selects.
        let input: JSONValue
        if stepsAreDefinite {
            guard let node = selected.first else { return [] }
            input = node
        } else {
            input = .array(selected)
        }
        return function.apply(input).map { [$0] } ?? []
    }

    /// The nodes the path selects from `start`; one rule for values and for located values.
    private func select<Node: JSONPathNode>(from start: Node, root: JSONValue) -> [Node] {
        var current = [start]
        for component in components {
            var next: [Node] = []
            for node in current { JSONPath.step(component, from: node, root: root, into: &next) }
            if next.isEmpty { return [] }
            current = next
        }
        return current
    }

    private static func step<Node: JSONPathNode>(
        _ component: Component, from node: Node, root: JSONValue, into next: inout [Node]
    ) {
        switch component {
        case .key(let key):
            if case .object(let object) = node.json, let value = object[key] { next.append(node.member(key, value)) }
        case .index(let index):
            if case .array(let elements) = node.json {
                let position = index < 0 ? elements.count + index : index
                if elements.indices.contains(position) { next.append(node.element(position, elements[position])) }
            }
        case .wildcard:
            switch node.json {
            case .array(let elements):
                for (position, element) in elements.enumerated() { next.append(node.element(position, element)) }
            case .object(let object):
                for member in object.members { next.append(node.member(member.key, member.value)) }
            default: break
            }
        case .descendant(let key):
            collectDescendants(of: node, key: key, into: &next)
        case .filter(let filter):
            switch node.json {
            case .array(let elements):
                for (position, element) in elements.enumerated() where filter.accepts(element, root: root) {
                    next.append(node.element(position, element))
                }
            case .object:
                if filter.accepts(node.json, root: root) { next.append(node) }
            default: break
            }
        }
    }

    /// `..key`: the named member of the node and of every descendant; `..*`: every descendant.
    private static func collectDescendants<Node: JSONPathNode>(of node: Node, key: String?, into next: inout [Node]) {
        switch node.json {
        case .object(let object):
            for member in object.members {
                if key == nil || member.key == key { next.append(node.member(member.key, member.value)) }
            }
            for member in object.members {
                collectDescendants(of: node.member(member.key, member.value), key: key, into: &next)
            }
        case .array(let elements):
            if key == nil {
                for (position, element) in elements.enumerated() { next.append(node.element(position, element)) }
            }
            for (position, element) in elements.enumerated() {
                collectDescendants(of: node.element(position, element), key: key, into: &next)
            }
        default: break
        }
    }
}

/// What evaluation walks: a plain value, or a value with the definite path to it.
private protocol JSONPathNode {
    /// The value at this node.
    var json: JSONValue { get }
    /// The node for the object member `key` of this node, holding `value`.
    func member(_ key: String, _ value: JSONValue) -> Self
    /// The node for the array element at `index` of this node, holding `value`.
    func element(_ index: Int, _ value: JSONValue) -> Self
}

extension JSONValue: JSONPathNode {
    fileprivate var json: JSONValue { self }
    fileprivate func member(_ key: String, _ value: JSONValue) -> JSONValue { value }
    fileprivate func element(_ index: Int, _ value: JSONValue) -> JSONValue { value }
}

/// A value with the steps from the root to it.
private struct LocatedNode: JSONPathNode {
    var components: [JSONPath.Component]
    var json: JSONValue

    func member(_ key: String, _ value: JSONValue) -> LocatedNode {
        LocatedNode(components: components + [.key(key)], json: value)
    }

    func element(_ index: Int, _ value: JSONValue) -> LocatedNode {
        LocatedNode(components: components + [.index(index)], json: value)
    }
}
