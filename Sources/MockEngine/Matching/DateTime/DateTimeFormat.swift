import Templating

/// How a date-time value is read: ISO 8601 (zoned or local, a date alone, a year and month),
/// the HTTP date forms (RFC 1123, RFC 1036, asctime), or an `actualFormat`: a Java
/// `DateTimeFormatter` pattern (the letters `y M d H m s S E a X x Z` and literals, read by
/// Templating's ``JavaDatePattern``), `unix` (seconds) or `epoch` (milliseconds).
package enum DateTimeFormat: Sendable, Hashable {
    case standard
    case unixSeconds
    case epochMilliseconds
    case pattern([Token])

    package enum Token: Sendable, Hashable {
        case year(Int)
        case month(Int)
        case day
        case hour
        case minute
        case second
        case fraction(Int)
        case dayName
        case amPm
        case offset
        case literal(Character)
    }

    /// Reads an `actualFormat`; throws a reason naming the letter petmock does not read.
    init(actualFormat: String) throws(PatternError) {
        switch actualFormat.lowercased() {
        case "unix": self = .unixSeconds
        case "epoch": self = .epochMilliseconds
        default: self = .pattern(try Self.tokens(actualFormat))
        }
    }

    private static func tokens(_ format: String) throws(PatternError) -> [Token] {
        let pattern = JavaDatePattern(format)
        guard !pattern.hasUnclosedQuote else {
            throw PatternError(pattern: format, reason: "a quote that is not closed")
        }
        var tokens: [Token] = []
        for piece in pattern.pieces {
            switch piece {
            case .literal(let text): tokens += text.map(Token.literal)
            case .field(let letter, let run):
                switch letter {
                case "y", "u": tokens.append(.year(run))
                case "M", "L": tokens.append(.month(run))
                case "d": tokens.append(.day)
                case "H": tokens.append(.hour)
                case "m": tokens.append(.minute)
                case "s": tokens.append(.second)
                case "S": tokens.append(.fraction(run))
                case "E": tokens.append(.dayName)
                case "a": tokens.append(.amPm)
                case "X", "x", "Z", "z", "O", "V": tokens.append(.offset)
                default:
                    throw PatternError(
                        pattern: format,
                        reason: "the pattern letter '\(letter)' is not supported (petmock reads y M d H m s S E a X Z)")
                }
            }
        }
        return tokens
    }

    /// The date-time the text holds in this format, or nil when it does not hold one.
    func parse(_ text: String) -> CivilDateTime? {
        guard text.utf8.count <= 100 else { return nil }
        switch self {
        case .standard: return Self.iso(text) ?? Self.httpDate(text)
        case .unixSeconds:
            guard let seconds = Int64(text), abs(seconds) < 1 << 40 else { return nil }
            return CivilDateTime(utcNanoseconds: seconds * 1_000_000_000)
        case .epochMilliseconds:
            guard let milliseconds = Int64(text), abs(milliseconds) < 1 << 50 else { return nil }
            return CivilDateTime(utcNanoseconds: milliseconds * 1_000_000)
        case .pattern(let tokens):
            var scanner = DateTimeScanner(text)
            return scanner.read(tokens)
        }
    }

    /// ISO 8601: `2021-06-14T15:15:15.123+01:00[Europe/London]`, `...Z`, a local date-time,
    /// `2021-06-14` (start of day), `2021-06` (first day) or `2021` (first day of the year).
    package static func iso(_ text: String) -> CivilDateTime? {
        var scanner = DateTimeScanner(text)
        guard let year = scanner.number(4...4) else { return nil }
        if scanner.atEnd { return CivilDateTime(year: year, month: 1, day: 1) }
        guard scanner.take("-"), let month = scanner.number(2...2) else { return nil }
        var value = CivilDateTime(year: year, month: month, day: 1)
        if scanner.atEnd { return value.isValid ? value : nil }
        guard scanner.take("-"), let day = scanner.number(2...2) else { return nil }
        value.day = day
        if scanner.atEnd { return value.isValid ? value : nil }
        guard scanner.take("T") || scanner.take("t") || scanner.take(" "), let hour = scanner.number(2...2),
            scanner.take(":"), let minute = scanner.number(2...2)
        else { return nil }
        (value.hour, value.minute) = (hour, minute)
        if scanner.take(":") {
            guard let second = scanner.number(2...2) else { return nil }
            value.second = second
            if scanner.take(".") || scanner.take(",") {
                guard let nanos = scanner.fraction() else { return nil }
                value.nanosecond = nanos
            }
        }
        if !scanner.atEnd {
            guard let offset = scanner.offset() else { return nil }
            value.offset = offset
            if scanner.take("[") {
                // A region name after the offset: the offset already says where the instant is.
                while !scanner.atEnd, scanner.peek != "]" { scanner.advance() }
                guard scanner.take("]") else { return nil }
            }
        }
        return scanner.atEnd && value.isValid ? value : nil
    }

    private static let rfc1123: [Token] = Array("E, d MMM yyyy HH:mm:ss Z", tokens: true)
    private static let rfc1036: [Token] = Array("E, d-MMM-yy HH:mm:ss Z", tokens: true)

    /// RFC 1123 (`Tue, 01 Jun 2021 15:16:17 GMT`), RFC 1036 (`Tuesday, 01-Jun-21 14:14:14 GMT`)
    /// and asctime (`Tue Jun  1 01:01:01 2021`), all UTC.
    static func httpDate(_ text: String) -> CivilDateTime? {
        for format in [rfc1123, rfc1036] {
            var scanner = DateTimeScanner(text)
            if let value = scanner.read(format) { return value }
        }
        var scanner = DateTimeScanner(text)
        guard scanner.word() != nil, scanner.take(" "), let month = scanner.monthName() else { return nil }
        while scanner.take(" ") {}
        guard let day = scanner.number(1...2), scanner.take(" "), let hour = scanner.number(2...2), scanner.take(":"),
            let minute = scanner.number(2...2), scanner.take(":"), let second = scanner.number(2...2),
            scanner.take(" "), let year = scanner.number(4...4), scanner.atEnd
        else { return nil }
        let value = CivilDateTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: 0)
        return value.isValid ? value : nil
    }
}

extension Array where Element == DateTimeFormat.Token {
    /// The tokens of a built-in pattern (known to be valid).
    fileprivate init(_ pattern: String, tokens: Bool) {
        if case .pattern(let parsed)? = try? DateTimeFormat(actualFormat: pattern) {
            self = parsed
        } else {
            self = []
        }
    }
}
