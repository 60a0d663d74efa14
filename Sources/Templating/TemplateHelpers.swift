import Foundation

/// The helpers petmock's templates can call, by name (WireMock's and Handlebars' own).
enum TemplateHelpers {
    typealias Function = @Sendable (inout HelperCall) throws(TemplateError) -> TemplateValue

    /// The helper called `name`, or nil when there is none.
    static func find(_ name: String) -> TemplateHelper? { all[name] }

    /// Every helper's name, sorted (for messages and docs).
    static var names: [String] { all.keys.sorted() }

    static let all: [String: TemplateHelper] = {
        var helpers: [String: TemplateHelper] = [
            "if": TemplateHelper(kind: .ifBlock), "unless": TemplateHelper(kind: .unlessBlock),
            "each": TemplateHelper(kind: .eachBlock), "with": TemplateHelper(kind: .withBlock),
        ]
        for (name, function) in logic { helpers[name] = TemplateHelper(kind: .function(function)) }
        for (name, function) in strings {
            helpers[name] = TemplateHelper(kind: .function(function), blockContent: .prepend)
        }
        for (name, function) in predicates { helpers[name] = TemplateHelper(kind: .function(function)) }
        for (name, function) in lists { helpers[name] = TemplateHelper(kind: .function(function)) }
        for (name, function) in json { helpers[name] = TemplateHelper(kind: .function(function)) }
        for (name, function) in dates { helpers[name] = TemplateHelper(kind: .function(function)) }
        for (name, function) in random { helpers[name] = TemplateHelper(kind: .function(function)) }
        for (name, function) in extras { helpers[name] = TemplateHelper(kind: .function(function)) }
        helpers["state"] = TemplateHelper(kind: .function(state), yieldsToPathWithoutArguments: true)
        helpers["parseJson"]?.blockContent = .prepend
        helpers["assign"] = TemplateHelper(kind: .function(assign), blockContent: .append)
        return helpers
    }()

    private static let assign: Function = { call throws(TemplateError) in
        let name = try call.parameter(0, "a variable name").text
        call.assignments.append((name, call.parameters.count > 1 ? call.parameters[1] : .null))
        return .string("")
    }

    static let logic: [String: Function] = [
        "eq": { call throws(TemplateError) in try choose(call, try compare(call) == 0) },
        "ne": { call throws(TemplateError) in try choose(call, try compare(call) != 0) },
        "neq": { call throws(TemplateError) in try choose(call, try compare(call) != 0) },
        "gt": { call throws(TemplateError) in try choose(call, try compare(call) > 0) },
        "gte": { call throws(TemplateError) in try choose(call, try compare(call) >= 0) },
        "lt": { call throws(TemplateError) in try choose(call, try compare(call) < 0) },
        "lte": { call throws(TemplateError) in try choose(call, try compare(call) <= 0) },
        "and": { call throws(TemplateError) in try choose(call, call.parameters.allSatisfy(\.isTruthy)) },
        "or": { call throws(TemplateError) in try choose(call, call.parameters.contains(where: \.isTruthy)) },
        "not": { call throws(TemplateError) in .bool(!(try call.parameter(0, "a value").isTruthy)) },
        "math": math,
        "lookup": { call throws(TemplateError) in
            var value = try call.parameter(0, "a value")
            let key = try call.parameter(1, "a key").text
            if let direct = value.member(key) { return direct }
            // `lookup request.query 'ids[].0'`: a dotted path, walked member by member.
            for segment in key.split(separator: ".") {
                guard let next = value.member(String(segment)) else { return .null }
                value = next
            }
            return value
        },
        "val": { call throws(TemplateError) in
            let value = call.parameters.first ?? .null
            let result: TemplateValue
            if case .null = value {
                result = call.hash("or") ?? call.hash("default") ?? .null
            } else {
                result = value
            }
            if let name = call.hashText("assign") {
                call.assignments.append((name, result))
                return .string("")
            }
            return result
        },
    ]

    /// `yes=`/`no=` answers of the comparison helpers, else a boolean.
    private static func choose(_ call: HelperCall, _ truth: Bool) throws(TemplateError) -> TemplateValue {
        if truth, let yes = call.hash("yes") { return yes }
        if !truth, let no = call.hash("no") { return no }
        return .bool(truth)
    }

    /// Compares the first two parameters: as numbers when both are, else as text.
    private static func compare(_ call: HelperCall) throws(TemplateError) -> Int {
        let left = try call.parameter(0, "a value")
        let right = try call.parameter(1, "a value to compare with")
        if left.isNumeric || right.isNumeric, let a = left.number, let b = right.number {
            return a < b ? -1 : a > b ? 1 : 0
        }
        if case .bool(let a) = left, case .bool(let b) = right { return a == b ? 0 : 1 }
        let a = left.text
        let b = right.text
        return a < b ? -1 : a > b ? 1 : 0
    }

    private static let math: Function = { call throws(TemplateError) in
        guard call.parameters.count == 3 else {
            throw call.wireMockFailure(
                "All maths functions require two operands and an operator as parameters e.g. 3 '+' 2")
        }
        let left = call.parameters[0]
        let operation = call.parameters[1].text
        let right = call.parameters[2]
        guard ["+", "-", "*", "x", "/", "%"].contains(operation) else {
            throw call.wireMockFailure("\(operation) is not a valid mathematical operator")
        }
        guard let a = left.number, let b = right.number else {
            throw call.failure("expects numbers, found '\(left.text)' and '\(right.text)'")
        }
        if (operation == "/" || operation == "%") && b == 0 {
            throw TemplateError("'math' divides by zero", at: call.position, stopsRender: true)
        }
        if let x = left.integer, let y = right.integer, a == Double(x), b == Double(y) {
            switch operation {
            case "+": return .int(x &+ y)
            case "-": return .int(x &- y)
            case "*", "x": return .int(x &* y)
            case "/":
                let (quotient, overflow) = x.dividedReportingOverflow(by: y)
                if overflow { return decimal(Decimal(x) / Decimal(y)) }
                return x % y == 0 ? .int(quotient) : decimal(Decimal(x) / Decimal(y))
            default: return .int(x.remainderReportingOverflow(dividingBy: y).partialValue)
            }
        }
        // As WireMock's BigDecimal: 0.25 + 0.34 is 0.59.
        let l = Decimal(string: left.text.trimmingSpaces.description) ?? Decimal(a)
        let r = Decimal(string: right.text.trimmingSpaces.description) ?? Decimal(b)
        switch operation {
        case "+": return decimal(l + r)
        case "-": return decimal(l - r)
        case "*", "x": return decimal(l * r)
        case "/": return decimal(l / r)
        default: return .double(a.truncatingRemainder(dividingBy: b))
        }
    }

    /// A decimal result: its exact text, as a number value.
    private static func decimal(_ value: Decimal) -> TemplateValue {
        var rounded = Decimal()
        var source = value
        NSDecimalRound(&rounded, &source, 16, .plain)
        return .double(Double(rounded.description) ?? 0)
    }
}

extension TemplateValue {
    /// Whether the value is a number (not text that reads as one).
    var isNumeric: Bool {
        switch self {
        case .int, .double, .json(.int), .json(.number): return true
        default: return false
        }
    }
}
