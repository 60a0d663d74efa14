import JSONKit

extension BodyGenerator {
    /// An integer within `minimum`/`maximum` (exclusive ones too) and a multiple of
    /// `multipleOf` (integral or not).
    mutating func integer(_ limits: SchemaLimits) -> JSONValue {
        var (low, high) = bounds(limits, span: 1000)
        low = low.rounded(.up)
        high = high.rounded(.down)
        if let exclusive = limits.exclusiveMinimum, low <= exclusive { low = exclusive.rounded(.down) + 1 }
        if let exclusive = limits.exclusiveMaximum, high >= exclusive { high = exclusive.rounded(.up) - 1 }
        guard low <= high else {
            fail("no integer lies between the bounds \(range(limits))")
            return Self.json(low)
        }
        guard let step = limits.multipleOf else { return Self.json(pick(from: low, to: high)) }
        // The multiples of the step in range that are whole numbers.
        let first = (low / step).rounded(.up)
        let last = (high / step).rounded(.down)
        var tried = 0
        var index = first + Double(below(Int(min(max(last - first, 0), 1000)) + 1))
        while index <= last && tried < 1000 {
            let value = index * step
            if value.rounded() == value { return Self.json(value) }
            index += 1
            tried += 1
        }
        index = first
        while index <= last && tried < 2000 {
            if (index * step).rounded() == index * step { return Self.json(index * step) }
            index += 1
            tried += 1
        }
        fail("no integer multiple of \(step) lies between the bounds \(range(limits))")
        return Self.json(low)
    }

    /// A number within the bounds, strictly inside exclusive ones, a multiple of `multipleOf`.
    mutating func number(_ limits: SchemaLimits) -> JSONValue {
        let (low, high) = bounds(limits, span: 100)
        func inside(_ value: Double) -> Bool {
            value >= low && value <= high && limits.exclusiveMinimum.map { value > $0 } ?? true
                && limits.exclusiveMaximum.map { value < $0 } ?? true
        }
        if let step = limits.multipleOf {
            var first = (low / step).rounded(.up)
            var last = (high / step).rounded(.down)
            if !inside(first * step) { first += 1 }
            if !inside(last * step) { last -= 1 }
            guard first <= last, first.isFinite, last.isFinite else {
                fail("no multiple of \(step) lies between the bounds \(range(limits))")
                return Self.json(low)
            }
            let index = first + Double(below(Int(min(last - first, 1000)) + 1))
            return Self.json(index * step)
        }
        guard low <= high else {
            fail("no number lies between the bounds \(range(limits))")
            return Self.json(low)
        }
        // Two decimals, strictly inside; the middle when rounding lands on an excluded bound.
        let fraction = Double(below(100)) / 100
        var value = ((low + (high - low) * fraction) * 100).rounded(.down) / 100
        // A fraction where one fits, so that the value is not also an integer (`oneOf`
        // [number, integer] accepts it once).
        if value.rounded() == value && inside(value + 0.5) { value += 0.5 }
        if inside(value) { return Self.json(value) }
        let middle = low / 2 + high / 2
        if inside(middle) { return Self.json(middle) }
        fail("no number lies between the bounds \(range(limits))")
        return Self.json(middle)
    }

    /// The inclusive range to draw from: the bounds, else `span` beyond the one given, else
    /// 1 to 1 + `span`.
    private func bounds(_ limits: SchemaLimits, span: Double) -> (Double, Double) {
        let lower = [limits.minimum, limits.exclusiveMinimum].compactMap { $0 }.max()
        let upper = [limits.maximum, limits.exclusiveMaximum].compactMap { $0 }.min()
        switch (lower, upper) {
        case (let low?, let high?): return (low, high)
        case (let low?, nil): return (low, low + span)
        case (nil, let high?): return (min(1, high) - (high < 1 ? span : 0), high)
        case (nil, nil): return (1, 1 + span)
        }
    }

    private mutating func pick(from low: Double, to high: Double) -> Double {
        let spread = high - low
        guard spread >= 1, spread.isFinite else { return low }
        return low + Double(below(Int(min(spread, 1000)) + 1))
    }

    private func range(_ limits: SchemaLimits) -> String {
        let low = limits.minimum.map { "[\($0)" } ?? limits.exclusiveMinimum.map { "(\($0)" } ?? "(-inf"
        let high = limits.maximum.map { "\($0)]" } ?? limits.exclusiveMaximum.map { "\($0))" } ?? "inf)"
        return "\(low), \(high)"
    }

    /// An integral value as an integer when it fits one, else as a JSON number.
    static func json(_ value: Double) -> JSONValue {
        if value.rounded() == value, abs(value) < 9e15 { return .int(Int64(value)) }
        return JSONNumber(value).map(JSONValue.number) ?? .int(0)
    }
}
