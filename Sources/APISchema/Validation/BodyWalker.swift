import JSONKit

/// The one JSON Schema validator: walks a parsed value against a compiled schema
/// (``ValidationPlan``) and collects every finding, collapsing repeats that differ only in array
/// indices.
///
/// A contract check (the default) reports what an app's decoding cares about: missing optional
/// properties, probable renames, nulls, members the contract does not list, each at its level.
/// `schemaOnly` reports JSON Schema's violations and nothing else (a stub's `matchesJsonSchema`:
/// valid when nothing is recorded), and `stopAtFirst` ends the walk at the first one.
package struct BodyWalker {
    /// Where a value sits, which decides how a null or a mismatch is named.
    enum Site {
        case root
        case item
        case property(name: String, required: Bool, swift: String?)
    }

    struct Key: Hashable {
        let id: FindingID
        let path: [JSONPath.Component]
        let expected: String
    }

    package struct Occurrence {
        package var id: FindingID
        package var path: JSONPath
        package var count: Int
        package var expected: String
        package var actual: String
        package var swift: String?
        package var message: String
        package var hint: String?
    }

    package private(set) var occurrences: [Occurrence] = []
    private var index: [Key: Int] = [:]
    var path: [JSONPath.Component] = []
    /// The Swift type of the body, for findings at the root or in array items.
    let rootSwift: String?
    /// How many `oneOf`/`anyOf` choices are being made for the value at the current path: a
    /// cycle of choices that never moves into the value ends at a bound.
    var choicesHere: (depth: Int, count: Int) = (0, 0)
    /// Whether only JSON Schema's violations are recorded.
    let schemaOnly: Bool
    /// Whether the walk ends at the first finding.
    let stopAtFirst: Bool
    /// The values a JSON Schema walk may still check, shared with its trials: nested choices
    /// cannot take exponential time (past the budget the value is a violation).
    var steps: Int
    /// The budget of a `schemaOnly` walk.
    package static let maximumSteps = 100_000
    /// The elements a walk may still try against a `contains`, shared with its trials; past
    /// them an array's `contains` is not judged.
    var containsTrials = Self.maximumContainsTrials
    /// The budget of element trials against `contains` in one walk.
    package static let maximumContainsTrials = 2_000

    package init(rootSwift: String?, schemaOnly: Bool = false, stopAtFirst: Bool = false) {
        self.rootSwift = rootSwift
        self.schemaOnly = schemaOnly
        self.stopAtFirst = stopAtFirst
        steps = schemaOnly ? Self.maximumSteps : .max
    }

    /// A walker for a trial (a `oneOf` branch, a `not`) at the current path.
    func makeTrial() -> BodyWalker {
        var trial = BodyWalker(rootSwift: rootSwift, schemaOnly: schemaOnly, stopAtFirst: schemaOnly)
        trial.path = path
        trial.choicesHere = choicesHere
        trial.steps = steps
        trial.containsTrials = containsTrials
        return trial
    }

    /// Whether the value failed: a breaking finding, or any finding when only JSON Schema's
    /// violations are recorded.
    var failed: Bool {
        schemaOnly ? !occurrences.isEmpty : hasBreaking
    }

    package mutating func walk(_ value: JSONValue, _ node: PlanNode) {
        check(value, node, site: .root, swift: rootSwift)
    }

    /// Adds another walker's findings (a trial of a `oneOf` branch), collapsing repeats.
    mutating func absorb(_ other: BodyWalker) {
        for occurrence in other.occurrences {
            let general = occurrence.path.components.map { component -> JSONPath.Component in
                if case .index = component { return .wildcard }
                return component
            }
            let key = Key(id: occurrence.id, path: general, expected: occurrence.expected)
            if let existing = index[key] {
                occurrences[existing].count += occurrence.count
            } else {
                index[key] = occurrences.count
                occurrences.append(occurrence)
            }
        }
    }

    /// How far the findings put the value from its schema: breaking ones weigh most, then
    /// warnings, then info; 0 when the value is valid.
    var distance: Int {
        occurrences.reduce(0) { total, occurrence in
            switch occurrence.id.level {
            case .breaking: total + 10_000 * occurrence.count
            case .warning: total + 100 * occurrence.count
            case .info: total + occurrence.count
            }
        }
    }

    /// Whether a breaking finding was recorded.
    var hasBreaking: Bool {
        occurrences.contains { $0.id.level == .breaking }
    }

    mutating func record(
        _ id: FindingID, extra: JSONPath.Component? = nil, expected: String, actual: String, swift: String?,
        message: String, hint: String? = nil
    ) {
        if let extra { path.append(extra) }
        defer { if extra != nil { path.removeLast() } }
        let general = path.map { component -> JSONPath.Component in
            if case .index = component { return .wildcard }
            return component
        }
        let key = Key(id: id, path: general, expected: expected)
        if let existing = index[key] {
            occurrences[existing].count += 1
            return
        }
        index[key] = occurrences.count
        occurrences.append(
            Occurrence(
                id: id, path: JSONPath(components: path), count: 1, expected: expected, actual: actual, swift: swift,
                message: message, hint: hint))
    }

    mutating func check(_ value: JSONValue, _ node: PlanNode, site: Site, swift: String?) {
        if stopAtFirst && !occurrences.isEmpty { return }
        if schemaOnly {
            steps -= 1
            guard steps > 0 else {
                record(
                    .propertyTypeChanged, expected: "a value checked in at most \(Self.maximumSteps) steps",
                    actual: "more", swift: nil, message: "the validation took too many steps")
                return
            }
        }
        if let delegate = node.delegate {
            if value.isNull && schemaOnly {
                if !node.nullable { recordTypeChanged(value, node, site: site, swift: swift) }
                return
            }
            if value.isNull {
                if case .property(let name, let required, _) = site {
                    recordNull(name: name, required: required, node: node, swift: swift)
                }
                return
            }
            check(value, delegate, site: site, swift: swift ?? delegate.swiftType)
            return
        }
        if node.isUnconstrained { return }
        let kind = BodyWalker.kind(of: value)
        if kind == .null && !schemaOnly {
            if case .property(let name, let required, _) = site {
                recordNull(name: name, required: required, node: node, swift: swift)
            } else if !node.allows(.null) {
                recordTypeChanged(value, node, site: site, swift: swift)
            }
            return
        }
        if !node.anyOf.isEmpty {
            guard node.kinds.isEmpty || node.allows(kind) else {
                recordTypeChanged(value, node, site: site, swift: swift)
                return
            }
            checkAlternatives(value, node, site: site, swift: swift)
            checkNot(value, node, site: site, swift: swift)
            return
        }
        guard node.allows(kind) else {
            recordTypeChanged(value, node, site: site, swift: swift)
            return
        }
        if let values = node.enumValues, !values.contains(where: { $0.isEquivalent(to: value) }) {
            recordNotInEnum(value, node, site: site, swift: swift)
            return
        }
        if node.not != nil { checkNot(value, node, site: site, swift: swift) }
        switch value {
        case .object(let object):
            if node.boundsObjects { checkObjectSize(object, node, site: site, swift: swift) }
            checkObject(object, node, swift: swift)
        case .array(let elements):
            if node.boundsArrays { checkArray(elements, node, site: site, swift: swift) }
            if !node.prefixItems.isEmpty {
                for (position, element) in elements.enumerated() {
                    guard let items = position < node.prefixItems.count ? node.prefixItems[position] : node.items
                    else { break }
                    path.append(.index(position))
                    check(element, items, site: .item, swift: items.swiftType ?? swift)
                    path.removeLast()
                }
                return
            }
            guard let items = node.items else { return }
            for (position, element) in elements.enumerated() {
                path.append(.index(position))
                check(element, items, site: .item, swift: items.swiftType ?? swift)
                path.removeLast()
            }
        case .string(let text):
            if node.format != nil || node.boundsStrings { checkString(text, node, site: site, swift: swift) }
        case .int, .number:
            if node.format != nil || node.boundsNumbers { checkNumber(value, node, site: site, swift: swift) }
        default:
            break
        }
    }
}
