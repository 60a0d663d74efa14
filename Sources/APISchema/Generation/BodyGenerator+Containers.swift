import JSONKit

extension BodyGenerator {
    /// Elements within `minItems`/`maxItems` (`prefixItems` first), distinct for `uniqueItems`.
    mutating func array(_ schema: Schema, depth: Int, exhausted: Bool) -> JSONValue {
        let limits = schema.limits
        let minimum = limits.minItems ?? 0
        if minimum > Self.maximumRequiredItems {
            // Refused whatever the elements: none are made.
            fail("minItems \(minimum) is above the \(Self.maximumRequiredItems) elements petmock makes")
            return .array([])
        }
        // `contains` needs room for `minContains` elements (1 when not set).
        let containsMinimum = schema.contains == nil ? 0 : limits.minContains ?? 1
        if containsMinimum > Self.maximumRequiredItems {
            fail("minContains \(containsMinimum) is above the \(Self.maximumRequiredItems) elements petmock makes")
            return .array([])
        }
        var count = exhausted || nodes >= Self.maximumNodes ? minimum : max(minimum, Self.maximumItems)
        count = max(count, containsMinimum)
        if let maximum = limits.maxItems { count = min(count, maximum) }
        if minimum > count { fail("minItems \(minimum) is above maxItems \(count)") }
        if containsMinimum > count { fail("minContains \(containsMinimum) is above maxItems \(count)") }
        var elements: [JSONValue] = []
        let wasVaried = varied
        defer { varied = wasVaried }
        for index in 0..<count {
            let element = index < schema.prefixItems.count ? schema.prefixItems[index] : (schema.items ?? Schema())
            var next = value(for: element, depth: depth + 1)
            if limits.uniqueItems {
                // Distinct elements: draw again, with varied choices, a few times.
                varied = true
                for _ in 0..<8 where elements.contains(next) { next = value(for: element, depth: depth + 1) }
                varied = wasVaried
                if elements.contains(next) {
                    if index >= minimum { break }
                    fail("fewer than \(minimum) distinct elements found for uniqueItems")
                }
            }
            elements.append(next)
        }
        if let contains = schema.contains {
            varied = wasVaried
            fitContains(contains, in: &elements, schema, depth: depth)
        }
        return .array(elements)
    }

    /// The element schema at a position: its `prefixItems` entry, else `items`.
    private func elementSchema(_ schema: Schema, at index: Int) -> Schema {
        index < schema.prefixItems.count ? schema.prefixItems[index] : (schema.items ?? Schema())
    }

    /// `contains`: replaces elements (the last first, so `prefixItems` go last) by values of
    /// their schema that are valid against `contains` until `minContains` (1 when not set) are,
    /// or by values outside it (or drops them, above `minItems`) until at most `maxContains`
    /// are; distinct for `uniqueItems`. Bounded by ``maximumContainsAttempts`` values made.
    private mutating func fitContains(_ contains: Schema, in elements: inout [JSONValue], _ schema: Schema, depth: Int)
    {
        let limits = schema.limits
        let minimum = limits.minContains ?? 1
        let maximum = limits.maxContains ?? .max
        if minimum > maximum {
            fail("minContains \(minimum) is above maxContains \(maximum)")
            return
        }
        let before = failures.count
        var matches = elements.map { conformance.accepts($0, contains) }
        var attempts = 0
        let wasVaried = varied
        defer { varied = wasVaried }
        /// A value of the element's schema at `index` that `contains` accepts (`inside`) or
        /// rejects, distinct for `uniqueItems`; nil when none was found in a few tries.
        func replacement(at index: Int, inside: Bool) -> JSONValue? {
            let element = elementSchema(schema, at: index)
            var wanted = Schema()
            wanted.allOf = [element]
            if inside { wanted.allOf.append(contains) } else { wanted.not = contains }
            for attempt in 0..<4 {
                guard attempts < Self.maximumContainsAttempts else { return nil }
                attempts += 1
                varied = wasVaried || attempt > 0
                let mark = failures.count
                let candidate = value(for: wanted, depth: depth + 1)
                let failed = failures.count > mark
                forgetFailures(after: mark)
                // Checked against each part: merging two parts may keep only one's pattern.
                guard !failed, conformance.accepts(candidate, element),
                    conformance.accepts(candidate, contains) == inside
                else { continue }
                let repeated = elements.indices.contains { $0 != index && elements[$0].isEquivalent(to: candidate) }
                if limits.uniqueItems && repeated { continue }
                return candidate
            }
            return nil
        }
        var found = matches.count(where: { $0 })
        for index in elements.indices.reversed() where found < minimum && !matches[index] {
            guard let candidate = replacement(at: index, inside: true) else { continue }
            elements[index] = candidate
            matches[index] = true
            found += 1
        }
        for index in elements.indices.reversed() where found > maximum && matches[index] {
            if index == elements.count - 1, index >= schema.prefixItems.count, elements.count > limits.minItems ?? 0 {
                elements.removeLast()
                matches.removeLast()
                found -= 1
                continue
            }
            guard let candidate = replacement(at: index, inside: false) else { continue }
            elements[index] = candidate
            matches[index] = false
            found -= 1
        }
        forgetFailures(after: before)
        if found < minimum {
            fail(
                "no array found with at least \(minimum) elements valid against its 'contains' within its items, "
                    + "minItems/maxItems and uniqueItems (\(found) found)")
        } else if found > maximum {
            fail("no array found with at most \(maximum) elements valid against its 'contains' (\(found) found)")
        }
    }

    /// Required properties, optional ones while the bounds allow (`maxProperties`, depth, the
    /// node budget), and members of `additionalProperties` for `minProperties`.
    mutating func object(_ schema: Schema, depth: Int, exhausted: Bool) -> JSONValue {
        let limits = schema.limits
        let maximum = limits.maxProperties ?? Int.max
        var members = JSONObject()
        let required = Set(schema.required)
        let additional: Schema? =
            switch schema.additionalProperties {
            case .schema(let inner): inner
            case .forbidden: nil
            default: Schema()
            }
        // Required ones first, whatever the bounds.
        for property in schema.properties where required.contains(property.name) {
            members[property.name] = value(for: property.schema, named: property.name, depth: depth + 1)
        }
        for name in schema.required where members[name] == nil {
            members[name] = additional.map { value(for: $0, named: name, depth: depth + 1) } ?? .string("string")
        }
        if members.count > maximum { fail("\(members.count) required properties are above maxProperties \(maximum)") }
        let wanted = min(limits.minProperties ?? 0, Self.maximumRequiredItems)
        var optional = 0
        for property in schema.properties where !required.contains(property.name) && !property.schema.writeOnly {
            let needed = members.count < wanted
            guard members.count < maximum, needed || (!exhausted && optional < Self.maximumOptionalProperties)
            else { continue }
            // An optional member that cannot be made is left out rather than failing the body.
            let before = failures.count
            let member = value(for: property.schema, named: property.name, depth: depth + 1)
            if failures.count > before {
                forgetFailures(after: before)
                continue
            }
            members[property.name] = member
            optional += 1
        }
        // A map (`additionalProperties` and nothing else) gets one member, more for `minProperties`.
        var extra = 0
        let wantsEntry = schema.properties.isEmpty && !exhausted && schema.additionalProperties != nil
        while let additional, members.count < min(maximum, max(wanted, wantsEntry ? 1 : 0)), extra < wanted + 1 {
            extra += 1
            var key = "additionalProp\(extra)"
            while members[key] != nil { key += "_" }
            members[key] = value(for: additional, named: nil, depth: depth + 1)
        }
        if members.count < (limits.minProperties ?? 0) {
            fail("minProperties \(limits.minProperties ?? 0) cannot be met (\(members.count) members made)")
        }
        return .object(members)
    }
}
