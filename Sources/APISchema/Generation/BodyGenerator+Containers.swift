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
        var count = exhausted || nodes >= Self.maximumNodes ? minimum : max(minimum, Self.maximumItems)
        if let maximum = limits.maxItems { count = min(count, maximum) }
        if minimum > count { fail("minItems \(minimum) is above maxItems \(count)") }
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
        return .array(elements)
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
            members[property.name] = value(for: property.schema, depth: depth + 1)
        }
        for name in schema.required where members[name] == nil {
            members[name] = additional.map { value(for: $0, depth: depth + 1) } ?? .string("string")
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
            let member = value(for: property.schema, depth: depth + 1)
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
            members[key] = value(for: additional, depth: depth + 1)
        }
        if members.count < (limits.minProperties ?? 0) {
            fail("minProperties \(limits.minProperties ?? 0) cannot be met (\(members.count) members made)")
        }
        return .object(members)
    }
}
