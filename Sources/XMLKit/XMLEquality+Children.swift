extension ComparisonWalk {
    /// Compares two child lists: their lengths, then each expected child with the actual
    /// child it pairs with. Both lists are sorted by local name (and, with
    /// `ignoreOrderOfSameNode`, by text content) as WireMock's node matcher sorts them; an
    /// expected child pairs with the first unpaired actual child of the same kind and name.
    mutating func compareChildren(_ expected: ComparedElement, _ actual: ComparedElement, path: PathLink) {
        var expectedChildren = expected.children
        // A text that is only `${xmlunit.ignore}` may be missing altogether (XMLUnit's rule).
        if !actual.children.contains(where: { if case .text = $0 { true } else { false } }) {
            expectedChildren.removeAll { child in
                if case .text(let value, _, _) = child, case .ignore? = value.placeholder { return true }
                return false
            }
        }
        record(
            .childNodelistLength, equal: expectedChildren.count == actual.children.count, path: path.rendered,
            expected: "\(expectedChildren.count) child node(s)", found: "\(actual.children.count)")
        if done { return }
        if expectedChildren.count == 1, actual.children.count == 1, let only = expectedChildren.first {
            // One child each (the common leaf): no sorting or grouping to do.
            let here = childPath(path, only)
            if pairingKey(only) == pairingKey(actual.children[0]) {
                compareNodes(only, actual.children[0], path: here)
            } else {
                let description = describe(only)
                record(.childLookup, equal: false, path: here.rendered, expected: description, found: "no such child")
            }
            return
        }
        if expectedChildren.isEmpty { return }
        // Actual children by pairing key, as indices in sorted order; a cursor per key (the
        // index lists are never written while in use, so none is copied).
        let sortedActual = sorted(actual.children)
        var indices: [PairingKey: [Int]] = [:]
        for (index, child) in sortedActual.enumerated() { indices[pairingKey(child), default: []].append(index) }
        var cursors: [PairingKey: Int] = [:]
        for child in sorted(expectedChildren) {
            if done { return }
            let key = pairingKey(child)
            let next = cursors[key, default: 0]
            guard let candidates = indices[key], next < candidates.count else {
                let (here, description) = (childPath(path, child), describe(child))
                record(.childLookup, equal: false, path: here.rendered, expected: description, found: "no such child")
                continue
            }
            cursors[key] = next + 1
            let here = childPath(path, child)
            compareNodes(child, sortedActual[candidates[next]], path: here)
        }
    }

    /// The children in the order WireMock's node matcher sees them (a stable sort, on keys
    /// worked out once).
    func sorted(_ nodes: [ComparedNode]) -> [ComparedNode] {
        guard nodes.count > 1 else { return nodes }
        let names = nodes.map(\.localName)
        let texts = options.ignoreOrderOfSameNode ? nodes.map(\.textContent) : []
        let order = nodes.indices.sorted { left, right in
            if names[left] != names[right] { return names[left] < names[right] }
            if !texts.isEmpty, texts[left] != texts[right] { return texts[left] < texts[right] }
            return left < right
        }
        return order.map { nodes[$0] }
    }

    /// Children with the same key can pair: elements by namespace and name (unless those
    /// comparisons are exempted), any text with any text, instructions with instructions.
    func pairingKey(_ node: ComparedNode) -> PairingKey {
        switch node {
        case .element(let element):
            PairingKey(
                kind: 0,
                namespace: countedMask & XMLComparisonType.namespaceURI.bit != 0 ? element.namespaceURI : nil,
                name: countedMask & XMLComparisonType.elementTagName.bit != 0 ? element.localName : "")
        case .text: PairingKey(kind: 1, namespace: nil, name: "")
        case .processingInstruction: PairingKey(kind: 2, namespace: nil, name: "")
        }
    }

    func childPath(_ path: PathLink, _ node: ComparedNode) -> PathLink {
        switch node {
        case .element(let element):
            PathLink(parent: path, kind: .element, name: element.displayName, position: element.position)
        case .text(_, _, let position): PathLink(parent: path, kind: .text, name: "", position: position)
        case .processingInstruction(_, _, let position):
            PathLink(parent: path, kind: .instruction, name: "", position: position)
        }
    }

    func describe(_ node: ComparedNode) -> String {
        switch node {
        case .element(let element): "<\(element.displayName)>"
        case .text(let value, _, _): "text \(Self.quoted(value.text))"
        case .processingInstruction(let target, _, _): "<?\(target)?>"
        }
    }

    mutating func compareNodes(_ expected: ComparedNode, _ actual: ComparedNode, path: PathLink) {
        switch (expected, actual) {
        case (.element(let left), .element(let right)): compareElements(left, right, path: path)
        case (.text(let left, let leftCDATA, _), .text(let right, let rightCDATA, _)):
            record(
                .nodeType, equal: leftCDATA == rightCDATA, path: path.rendered, expected: expected.kind,
                found: actual.kind)
            record(
                .textValue, equal: valuesEqual(left, right.text), path: path.rendered, expected: Self.quoted(left.text),
                found: Self.quoted(right.text))
        case (.processingInstruction(let target, let data, _), .processingInstruction(let other, let otherData, _)):
            record(
                .processingInstructionTarget, equal: target == other, path: path.rendered,
                expected: Self.quoted(target),
                found: Self.quoted(other))
            record(
                .processingInstructionData, equal: data == otherData, path: path.rendered, expected: Self.quoted(data),
                found: Self.quoted(otherData))
        default:
            record(.nodeType, equal: false, path: path.rendered, expected: expected.kind, found: actual.kind)
        }
    }
}

/// What pairs children: their kind, and for elements the namespace and name that count.
struct PairingKey: Hashable {
    let kind: UInt8
    let namespace: String?
    let name: String
}
