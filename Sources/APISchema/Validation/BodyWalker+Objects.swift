import JSONKit

extension BodyWalker {
    /// Checks an object's members: known ones against their schemas, then missing and unknown
    /// keys, pairing a missing key with an unknown key of a compatible value as a rename.
    mutating func checkObject(_ object: JSONObject, _ node: PlanNode, swift: String?) {
        var seen = SeenProperties(count: node.properties.count)
        var unknown: [JSONMember] = []
        for member in object.members {
            guard let position = node.position(of: member.key) else {
                switch node.additional {
                case .node(let extra):
                    path.append(.key(member.key))
                    check(member.value, extra, site: .item, swift: swift)
                    path.removeLast()
                default:
                    unknown.append(member)
                }
                continue
            }
            if seen.contains(position) { continue }
            seen.insert(position)
            let property = node.properties[position]
            if property.writeOnly && !schemaOnly {
                record(
                    .propertyNotAllowed, extra: .key(member.key), expected: "absent (writeOnly)",
                    actual: BodyWalker.excerpt(member.value), swift: property.swift,
                    message: "'\(member.key)' is writeOnly and must not appear in a response")
                continue
            }
            path.append(.key(member.key))
            check(
                member.value, property.node,
                site: .property(name: member.key, required: property.required, swift: property.swift),
                swift: property.swift)
            path.removeLast()
        }
        if unknown.isEmpty && seen.count == node.properties.count { return }
        if schemaOnly {
            checkSchemaOnly(node, seen: seen, unknown: unknown)
            return
        }
        var used = [Bool](repeating: false, count: unknown.count)
        let missing = node.properties.indices.filter { !seen.contains($0) && !node.properties[$0].writeOnly }
        for position in missing {
            let property = node.properties[position]
            let others = missing.map { node.properties[$0] }
            if let pair = renameCandidate(for: property, among: unknown, used: used, missing: others) {
                used[pair.index] = true
                let newKey = unknown[pair.index].key
                let similarity = Int((pair.similarity * 100).rounded())
                record(
                    .propertyProbablyRenamed, extra: .key(property.name),
                    expected: "'\(property.name)' (\(property.node.typeText))",
                    actual: "'\(newKey)': \(BodyWalker.excerpt(unknown[pair.index].value))", swift: property.swift,
                    message:
                        "'\(property.name)' is missing and '\(newKey)' appeared with a compatible value: probably renamed",
                    hint: renameHint(from: property.name, to: newKey, similarity: similarity))
                continue
            }
            if property.required {
                record(
                    .requiredPropertyMissing, extra: .key(property.name), expected: property.node.typeText,
                    actual: "absent",
                    swift: property.swift, message: "required property '\(property.name)' is missing")
            } else {
                record(
                    .optionalPropertyMissing, extra: .key(property.name), expected: property.node.typeText,
                    actual: "absent",
                    swift: property.swift, message: "optional property '\(property.name)' is missing")
            }
        }
        for (position, member) in unknown.enumerated() where !used[position] {
            if case .forbidden = node.additional {
                record(
                    .propertyNotAllowed, extra: .key(member.key),
                    expected: "no other properties (additionalProperties: false)",
                    actual: BodyWalker.excerpt(member.value), swift: swift,
                    message: "property '\(member.key)' is not in the contract, which forbids others")
            } else {
                record(
                    .propertyUnexpected, extra: .key(member.key), expected: "no such property",
                    actual: BodyWalker.excerpt(member.value), swift: swift,
                    message: "property '\(member.key)' is not in the contract")
            }
        }
    }

    /// JSON Schema's view of missing and unknown members: a required property must be there, a
    /// member not in `properties` must be allowed by `additionalProperties`; no renames, no notes.
    private mutating func checkSchemaOnly(_ node: PlanNode, seen: SeenProperties, unknown: [JSONMember]) {
        for position in node.properties.indices where node.properties[position].required && !seen.contains(position) {
            let property = node.properties[position]
            record(
                .requiredPropertyMissing, extra: .key(property.name), expected: property.node.typeText,
                actual: "absent", swift: property.swift, message: "required property '\(property.name)' is missing")
            if stopAtFirst { return }
        }
        guard case .forbidden = node.additional else { return }
        for member in unknown {
            record(
                .propertyNotAllowed, extra: .key(member.key),
                expected: "no other properties (additionalProperties: false)", actual: BodyWalker.excerpt(member.value),
                swift: nil, message: "property '\(member.key)' is not allowed (additionalProperties: false)")
            if stopAtFirst { return }
        }
    }

    /// The unknown member most like a missing property: a compatible value, and a similar
    /// name, or else the only compatible pair (the one new key that fits this property, and
    /// this the one missing property it fits).
    /// What to do about a rename: with the app's models (the body names its Swift type), change
    /// the model; without them (a third-party document) there is no model, only the document.
    func renameHint(from old: String, to new: String, similarity: Int) -> String {
        guard rootSwift != nil else {
            return "the API renamed '\(old)' to '\(new)'? update the document, or ask the API's owners "
                + "(name similarity \(similarity)%)"
        }
        return "rename '\(old)' to '\(new)' in the model's CodingKeys, or fix the API (name similarity \(similarity)%)"
    }

    private func renameCandidate(
        for property: PlanNode.Property, among unknown: [JSONMember], used: [Bool], missing: [PlanNode.Property]
    ) -> (index: Int, similarity: Double)? {
        var best: (index: Int, similarity: Double)?
        var candidates = 0
        for (position, member) in unknown.enumerated() where !used[position] {
            guard BodyWalker.isCompatible(member.value, property.node) else { continue }
            candidates += 1
            let similarity = NameSimilarity.score(property.name, member.key)
            if best == nil || similarity > (best?.similarity ?? 0) { best = (position, similarity) }
        }
        guard let best else { return nil }
        if best.similarity >= 0.5 { return best }
        let value = unknown[best.index].value
        let fitting = missing.filter { BodyWalker.isCompatible(value, $0.node) }.count
        return candidates == 1 && fitting == 1 ? best : nil
    }

    static func isCompatible(_ value: JSONValue, _ node: PlanNode, depth: Int = 0) -> Bool {
        guard depth < 16 else { return true }
        if let delegate = node.delegate { return value.isNull || isCompatible(value, delegate, depth: depth + 1) }
        if value.isNull { return node.nullable }
        if node.kinds.isEmpty && !node.anyOf.isEmpty {
            return node.anyOf.contains { isCompatible(value, $0, depth: depth + 1) }
        }
        return node.allows(BodyWalker.kind(of: value))
    }

    /// A null property value: fine where the schema allows null and the property is required
    /// (JSON Schema's meaning); otherwise a finding by whether the property is required.
    mutating func recordNull(name: String, required: Bool, node: PlanNode, swift: String?) {
        let nullable = node.delegate != nil ? node.nullable : node.allows(.null)
        if required {
            guard !nullable else { return }
            record(
                .requiredPropertyNull, expected: node.nonNullTypeText, actual: "null", swift: swift,
                message: "required property '\(name)' is null")
        } else {
            record(
                .optionalPropertyNull, expected: node.nonNullTypeText, actual: "null", swift: swift,
                message: "optional property '\(name)' is null")
        }
    }

    static func subject(_ site: Site) -> String {
        switch site {
        case .root: "the body"
        case .item: "the element"
        case .property(let name, _, _): "'\(name)'"
        }
    }

    mutating func recordTypeChanged(_ value: JSONValue, _ node: PlanNode, site: Site, swift: String?) {
        let subject = BodyWalker.subject(site)
        let found = value.kind.rawValue
        let article = found == "integer" || found == "array" || found == "object" ? "an" : "a"
        let message = "\(subject) is \(article) \(found), the contract says \(node.typeText)"
        record(
            .propertyTypeChanged, expected: node.typeText, actual: "\(found) \(BodyWalker.excerpt(value))",
            swift: swift,
            message: message)
    }

    /// A value as findings quote it: compact JSON, at most 40 characters.
    static func excerpt(_ value: JSONValue) -> String {
        JSONComparison.excerpt(value, limit: 40)
    }
}

/// Which properties of an object were seen: bits for up to 64, an array beyond.
struct SeenProperties {
    private var bits: UInt64 = 0
    private var overflow: [Bool]
    private(set) var count = 0

    init(count: Int) {
        overflow = count > 64 ? [Bool](repeating: false, count: count) : []
    }

    @inline(__always)
    func contains(_ position: Int) -> Bool {
        overflow.isEmpty ? bits & (1 << UInt64(position)) != 0 : overflow[position]
    }

    @inline(__always)
    mutating func insert(_ position: Int) {
        if overflow.isEmpty {
            bits |= 1 << UInt64(position)
        } else {
            overflow[position] = true
        }
        count += 1
    }
}
