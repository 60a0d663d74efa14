import JSONKit
import LinearRegex

extension BodyGenerator {
    /// A string of the schema's `format`, matching its `pattern` (sampled from the pattern by
    /// the regular-expression engine that checks it), of a length within `minLength` and
    /// `maxLength` (in code points).
    mutating func string(_ schema: Schema) -> String {
        let minimum = schema.limits.minLength ?? 0
        let maximum = schema.limits.maxLength ?? max(minimum, 64)
        guard minimum <= maximum else {
            fail("minLength \(minimum) is above maxLength \(maximum)")
            return ""
        }
        guard minimum <= Self.maximumStringLength else {
            fail("minLength \(minimum) is above the \(Self.maximumStringLength) characters petmock makes")
            return ""
        }
        let length = minimum...min(maximum, Self.maximumStringLength)
        if let realistic = realistic(schema) { return realistic }
        let formatted = formatted(schema.format, length: length)
        if let pattern = schema.limits.pattern {
            if let formatted, conformance.accepts(.string(formatted), schema) { return formatted }
            return matching(pattern, length: length, schema: schema)
        }
        if let formatted { return formatted }
        return fitted(varied ? word() : "string", length)
    }

    /// A text that looks like what the schema holds, when the schema accepts it: its
    /// `x-faker` kind, else (for no format petkit makes) the kind its format's or property's
    /// name tells (`password`, `email`, `city`); nil for none, or one the schema refuses
    /// (`pattern`, lengths and `enum` win over the name).
    private mutating func realistic(_ schema: Schema) -> String? {
        let kind: RealisticText?
        if let key = schema.faker, let faked = RealisticText(faker: key) {
            kind = faked
        } else if let format = schema.format, Self.madeFormats.contains(format) {
            return nil
        } else {
            kind =
                schema.format.flatMap(RealisticText.init(propertyName:))
                ?? propertyName.flatMap(RealisticText.init(propertyName:))
        }
        guard let kind else { return nil }
        let text = kind.text(using: &random)
        return conformance.accepts(.string(text), schema) ? text : nil
    }

    /// A text the pattern matches, of a length in `length`: a whole match of the pattern, or
    /// one padded (the pattern is searched for, so text around a match is allowed unless it is
    /// anchored); what the schema then accepts.
    private mutating func matching(_ pattern: String, length: ClosedRange<Int>, schema: Schema) -> String {
        guard let sampler = try? RegexSampler(pattern) else {
            fail("the pattern /\(pattern)/ cannot be compiled, so no string can be made for it")
            return fitted("string", length)
        }
        if let text = sampler.sample(length: length, using: &random), conformance.accepts(.string(text), schema) {
            return text
        }
        if let core = sampler.sample(length: 0...length.upperBound, using: &random) {
            let missing = length.lowerBound - core.unicodeScalars.count
            for padded in [
                core + String(repeating: "x", count: max(missing, 0)),
                String(repeating: "x", count: max(missing, 0)) + core,
            ]
            where conformance.accepts(.string(padded), schema) {
                return padded
            }
        }
        fail(
            "the pattern /\(pattern)/ has no match of \(length.lowerBound) to \(length.upperBound) characters that petmock can make"
        )
        return fitted("string", length)
    }

    /// The formats ``formatted(_:length:)`` makes a value of.
    static let madeFormats: Set<String> = [
        "date-time", "date", "time", "uuid", "email", "uri", "url", "uri-reference", "iri", "hostname", "ipv4", "ipv6",
        "byte",
    ]

    /// A value of the format, fitted to the length where the format allows it; nil for a
    /// format not known (the other constraints decide).
    private mutating func formatted(_ format: String?, length: ClosedRange<Int>) -> String? {
        let number = Int(random.next() % 250) + 1
        switch format {
        case "date-time": return "2024-05-\(day())T\(clock())Z"
        case "date": return "2024-05-\(day())"
        case "time": return "\(clock())Z"
        case "uuid": return RealisticText.uuid(using: &random)
        case "email":
            let domain = "@example.com"
            return fitted("user\(number)", Self.span(length.lowerBound - domain.count, 64)) + domain
        case "uri", "url", "uri-reference", "iri":
            let base = "https://example.com/"
            return base + fitted("\(number)", Self.span(length.lowerBound - base.count, length.upperBound - base.count))
        case "hostname":
            let suffix = ".example.com"
            return fitted("host\(number)", Self.span(length.lowerBound - suffix.count, 63)) + suffix
        case "ipv4": return "192.0.2.\(number)"
        case "ipv6": return "2001:db8::\(String(number, radix: 16))"
        case "byte":
            let groups = max((length.lowerBound + 3) / 4, 2)
            return String(repeating: "cGV0", count: groups)
        default: return nil
        }
    }

    private mutating func day() -> String {
        let day = below(28) + 1
        return day < 10 ? "0\(day)" : "\(day)"
    }

    private mutating func clock() -> String {
        let hour = below(24)
        let minute = below(60)
        return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + (minute < 10 ? "0\(minute)" : "\(minute)") + ":00"
    }

    /// A short lowercase word.
    private mutating func word() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<(4 + below(8))).map { _ in letters[below(letters.count)] })
    }

    /// At least 1 to at least the lower bound: a range that cannot be empty.
    static func span(_ lower: Int, _ upper: Int) -> ClosedRange<Int> {
        max(lower, 1)...max(lower, upper, 1)
    }

    /// The text padded with `x` or cut to a length in `length`.
    func fitted(_ text: String, _ length: ClosedRange<Int>) -> String {
        var scalars = Array(text.unicodeScalars)
        if scalars.count < length.lowerBound {
            scalars += Array(repeating: "x", count: length.lowerBound - scalars.count)
        }
        if scalars.count > length.upperBound { scalars = Array(scalars.prefix(length.upperBound)) }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
