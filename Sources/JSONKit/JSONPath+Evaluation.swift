extension JSONPath {
    /// The nodes the path selects, in document order; empty when it selects nothing.
    public func evaluate(on value: JSONValue) -> [JSONValue] {
        evaluate(on: value, root: value)
    }

    /// Whether the path selects at least one node: WireMock's `matchesJsonPath` without a
    /// sub-matcher.
    public func matches(_ value: JSONValue) -> Bool {
        !evaluate(on: value).isEmpty
    }

    func evaluate(on value: JSONValue, root: JSONValue) -> [JSONValue] {
        var current = [value]
        for component in components {
            var next: [JSONValue] = []
            for node in current { JSONPath.step(component, from: node, root: root, into: &next) }
            if next.isEmpty { return [] }
            current = next
        }
        return current
    }

    private static func step(
        _ component: Component, from node: JSONValue, root: JSONValue, into next: inout [JSONValue]
    ) {
        switch component {
        case .key(let key):
            if case .object(let object) = node, let value = object[key] { next.append(value) }
        case .index(let index):
            if case .array(let elements) = node {
                let position = index < 0 ? elements.count + index : index
                if elements.indices.contains(position) { next.append(elements[position]) }
            }
        case .wildcard:
            switch node {
            case .array(let elements): next.append(contentsOf: elements)
            case .object(let object): next.append(contentsOf: object.members.map(\.value))
            default: break
            }
        case .descendant(let key):
            collectDescendants(of: node, key: key, into: &next)
        case .filter(let filter):
            switch node {
            case .array(let elements):
                next.append(contentsOf: elements.filter { filter.accepts($0, root: root) })
            case .object:
                if filter.accepts(node, root: root) { next.append(node) }
            default: break
            }
        }
    }

    /// `..key`: the named member of the node and of every descendant; `..*`: every descendant.
    private static func collectDescendants(of node: JSONValue, key: String?, into next: inout [JSONValue]) {
        switch node {
        case .object(let object):
            for member in object.members {
                if key == nil || member.key == key { next.append(member.value) }
            }
            for member in object.members { collectDescendants(of: member.value, key: key, into: &next) }
        case .array(let elements):
            if key == nil { next.append(contentsOf: elements) }
            for element in elements { collectDescendants(of: element, key: key, into: &next) }
        default: break
        }
    }
}
