import JSONKit

extension BodyWalker {
    /// `oneOf`/`anyOf`: the branch the discriminator names, else the first branch the value is
    /// valid against (no findings), else the closest branch's findings, once.
    mutating func checkAlternatives(_ value: JSONValue, _ node: PlanNode, site: Site, swift: String?) {
        let saved = choicesHere
        choicesHere = choicesHere.depth == path.count ? (path.count, choicesHere.count + 1) : (path.count, 1)
        defer { choicesHere = saved }
        guard choicesHere.count <= 8 else {
            // Choices that lead back to themselves without moving into the value: not a match.
            recordTypeChanged(value, node, site: site, swift: swift)
            return
        }
        if let discriminator = node.discriminator, case .object(let object) = value,
            case .string(let tag)? = object[discriminator.property]
        {
            if let branch = discriminator.branches[tag] {
                check(value, branch, site: site, swift: swift ?? branch.swiftType)
            } else {
                let names = discriminator.branches.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                record(
                    .valueNotInEnum, extra: .key(discriminator.property), expected: "one of \(names)",
                    actual: BodyWalker.excerpt(.string(tag)), swift: swift,
                    message: "discriminator '\(discriminator.property)' is \"\(tag)\", which names no schema of the "
                        + "contract")
            }
            return
        }
        let kind = BodyWalker.kind(of: value)
        var closest: BodyWalker?
        var matched: [Int] = []
        for (index, alternative) in node.anyOf.enumerated()
        where alternative.delegate != nil || alternative.allows(kind) {
            var trial = makeTrial()
            trial.check(value, alternative, site: site, swift: swift ?? alternative.swiftType)
            steps = trial.steps
            containsTrials = trial.containsTrials
            if !trial.failed { matched.append(index) }
            if trial.occurrences.isEmpty && !node.exclusive { return }
            if closest == nil || trial.distance < closest?.distance ?? .max { closest = trial }
            if node.exclusive && matched.count > 1 { break }
        }
        guard let closest else {
            recordTypeChanged(value, node, site: site, swift: swift)
            return
        }
        if node.exclusive && matched.count > 1 {
            let names = matched.map { "branch \($0 + 1) (\(node.anyOf[$0].typeText))" }.joined(separator: " and ")
            record(
                .oneOfAmbiguous, expected: "exactly one oneOf branch: \(node.typeText)",
                actual: BodyWalker.excerpt(value), swift: swift,
                message: "\(BodyWalker.subject(site)) matches \(names) of a oneOf, which allows exactly one")
            return
        }
        absorb(closest)
    }

    /// The value's JSON Schema type: a number with a zero fraction (`2.0`) is an integer.
    static func kind(of value: JSONValue) -> JSONKind {
        if case .number(let number) = value, number.isWholeNumber { return .integer }
        return value.kind
    }

    /// `not`: a value valid against the excluded schema (no breaking finding) is a finding.
    mutating func checkNot(_ value: JSONValue, _ node: PlanNode, site: Site, swift: String?) {
        guard let excluded = node.not else { return }
        let saved = choicesHere
        choicesHere = choicesHere.depth == path.count ? (path.count, choicesHere.count + 1) : (path.count, 1)
        defer { choicesHere = saved }
        guard choicesHere.count <= 8 else { return }
        var trial = makeTrial()
        trial.check(value, excluded, site: site, swift: swift)
        steps = trial.steps
        containsTrials = trial.containsTrials
        guard !trial.failed else { return }
        record(
            .valueExcluded, expected: "not \(excluded.typeText)", actual: BodyWalker.excerpt(value), swift: swift,
            message: "\(BodyWalker.subject(site)) matches the schema the contract excludes ('not')")
    }

    mutating func recordNotInEnum(_ value: JSONValue, _ node: PlanNode, site: Site, swift: String?) {
        record(
            .valueNotInEnum, expected: node.typeText, actual: "\(value.kind.rawValue) \(BodyWalker.excerpt(value))",
            swift: swift,
            message: "\(BodyWalker.subject(site)) is \(BodyWalker.excerpt(value)), not one of the contract's values")
    }

    /// `format`, `minLength`/`maxLength` (in code points) and `pattern`.
    mutating func checkString(_ text: String, _ node: PlanNode, site: Site, swift: String?) {
        var subject: String { BodyWalker.subject(site) }
        if let format = node.format, !FormatCheck.matches(text, format: format) {
            record(
                .stringFormatMismatch, expected: node.typeText, actual: "string \(BodyWalker.excerpt(.string(text)))",
                swift: swift, message: "\(subject) is not a valid \(format) value")
        }
        guard node.boundsStrings else { return }
        let limits = node.limits
        if limits.minLength != nil || limits.maxLength != nil {
            let length = text.unicodeScalars.count
            if length < limits.minLength ?? 0 || length > limits.maxLength ?? .max {
                record(
                    .stringLengthOutOfRange, expected: BodyWalker.rangeText(limits.minLength, limits.maxLength),
                    actual: "\(length) characters", swift: swift,
                    message: "\(subject) has \(length) characters, the contract allows "
                        + BodyWalker.rangeText(limits.minLength, limits.maxLength))
            }
        }
        if let pattern = node.pattern, let source = limits.pattern,
            text.utf8.count <= ValidationPlan.patternSubjectLimit,
            !pattern.wholeMatches(text)
        {
            record(
                .stringPatternMismatch, expected: "a match of /\(source)/",
                actual: "string \(BodyWalker.excerpt(.string(text)))", swift: swift,
                message: "\(subject) does not match the pattern /\(source)/")
        }
    }

    /// `int32`/`int64` ranges, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`
    /// and `multipleOf`.
    mutating func checkNumber(_ value: JSONValue, _ node: PlanNode, site: Site, swift: String?) {
        // Texts built only for a finding: this runs for every bounded number.
        var subject: String { BodyWalker.subject(site) }
        var actual: String { "\(value.kind.rawValue) \(BodyWalker.excerpt(value))" }
        switch (value, node.format) {
        case (.number, "int64") where value.kind == .integer:
            // An integral number the parser could not hold in an Int64.
            record(
                .valueOutOfRange, expected: "an int64", actual: actual, swift: swift,
                message: "\(subject) is outside the int64 range")
        case (.int(let number), "int32") where Int32(exactly: number) == nil:
            record(
                .valueOutOfRange, expected: "an int32", actual: actual, swift: swift,
                message: "\(subject) is outside the int32 range")
        default: break
        }
        guard node.boundsNumbers, let number = value.doubleValue else { return }
        let limits = node.limits
        var broken: [String] = []
        if let minimum = limits.minimum, number < minimum { broken.append(">= \(BodyWalker.text(minimum))") }
        if let maximum = limits.maximum, number > maximum { broken.append("<= \(BodyWalker.text(maximum))") }
        if let bound = limits.exclusiveMinimum, number <= bound { broken.append("> \(BodyWalker.text(bound))") }
        if let bound = limits.exclusiveMaximum, number >= bound { broken.append("< \(BodyWalker.text(bound))") }
        if let step = limits.multipleOf, !BodyWalker.isMultiple(value, of: step) {
            broken.append("a multiple of \(BodyWalker.text(step))")
        }
        guard !broken.isEmpty else { return }
        let expected = broken.joined(separator: " and ")
        record(
            .valueOutOfRange, expected: expected, actual: actual, swift: swift,
            message: "\(subject) is \(BodyWalker.excerpt(value)), the contract says \(expected)")
    }

    /// `contains` with `minContains` (1 when not set) and `maxContains`: how many elements are
    /// valid against `contains`, each a trial; counting stops once past both bounds.
    mutating func checkContains(
        _ elements: [JSONValue], _ contains: PlanNode, _ node: PlanNode, site: Site, swift: String?
    ) {
        let minimum = node.limits.minContains ?? 1
        let maximum = node.limits.maxContains
        let enough = max(minimum, (maximum ?? minimum - 1) + 1)
        var matching = 0
        for (position, element) in elements.enumerated() where matching < enough {
            // Past the walk's budget of element trials, the array is not judged (nested
            // `contains` would otherwise check each element once more per level).
            guard containsTrials > 0 else { return }
            containsTrials -= 1
            var trial = makeTrial()
            trial.path.append(.index(position))
            trial.check(element, contains, site: .item, swift: swift)
            steps = trial.steps
            containsTrials = trial.containsTrials
            // Out of steps: the elements not checked count as not matching.
            if schemaOnly && steps <= 0 { break }
            if !trial.failed { matching += 1 }
        }
        guard matching < minimum || matching > maximum ?? .max else { return }
        let expected =
            switch (minimum, maximum) {
            case (let low, let high?) where low == high: "exactly \(low)"
            case (let low, let high?): "\(low) to \(high)"
            case (let low, nil): "at least \(low)"
            }
        let found = matching > maximum ?? .max ? "more than \(maximum ?? 0)" : "\(matching)"
        record(
            .arraySizeOutOfRange, expected: "\(expected) elements valid against contains (\(contains.typeText))",
            actual: "\(found) of \(elements.count) elements", swift: swift,
            message: "\(BodyWalker.subject(site)) has \(found) elements valid against its 'contains' "
                + "(\(contains.typeText)), the contract asks for \(expected) (minContains/maxContains)")
    }

    /// `minItems`, `maxItems` and `uniqueItems`.
    mutating func checkArray(_ elements: [JSONValue], _ node: PlanNode, site: Site, swift: String?) {
        let limits = node.limits
        var subject: String { BodyWalker.subject(site) }
        if elements.count < limits.minItems ?? 0 || elements.count > limits.maxItems ?? .max {
            let range = BodyWalker.rangeText(limits.minItems, limits.maxItems)
            record(
                .arraySizeOutOfRange, expected: range.replacing("characters", with: "elements"),
                actual: "\(elements.count) elements", swift: swift,
                message: "\(subject) has \(elements.count) elements, the contract allows "
                    + range.replacing("characters", with: "elements"))
        }
        if let contains = node.contains { checkContains(elements, contains, node, site: site, swift: swift) }
        // Pairwise (an integer 1 equals the number 1.0): bounded so a huge array stays cheap.
        guard limits.uniqueItems, elements.count <= 2_000 else { return }
        for first in elements.indices {
            for second in elements.indices where second > first && elements[first].isEquivalent(to: elements[second]) {
                record(
                    .arrayItemsNotUnique, expected: "unique elements",
                    actual: "[\(first)] and [\(second)] are \(BodyWalker.excerpt(elements[first]))", swift: swift,
                    message: "\(subject) repeats an element (uniqueItems)")
                return
            }
        }
    }

    /// `minProperties` and `maxProperties`.
    mutating func checkObjectSize(_ object: JSONObject, _ node: PlanNode, site: Site, swift: String?) {
        let limits = node.limits
        guard object.count < limits.minProperties ?? 0 || object.count > limits.maxProperties ?? .max else { return }
        let range = BodyWalker.rangeText(limits.minProperties, limits.maxProperties)
            .replacing("characters", with: "properties")
        record(
            .objectSizeOutOfRange, expected: range, actual: "\(object.count) properties", swift: swift,
            message: "\(BodyWalker.subject(site)) has \(object.count) properties, the contract allows \(range)")
    }

    static func rangeText(_ low: Int?, _ high: Int?) -> String {
        switch (low, high) {
        case (let low?, let high?): low == high ? "exactly \(low) characters" : "\(low) to \(high) characters"
        case (let low?, nil): "at least \(low) characters"
        case (nil, let high?): "at most \(high) characters"
        case (nil, nil): "any number of characters"
        }
    }

    static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// Exact for integers and integral steps; within a relative 1e-9 otherwise.
    static func isMultiple(_ value: JSONValue, of step: Double) -> Bool {
        if case .int(let number) = value, step.rounded() == step, step >= 1, step < 9e18 {
            return number % Int64(step) == 0
        }
        guard let number = value.doubleValue else { return true }
        let quotient = number / step
        guard quotient.isFinite else { return true }
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }
}
