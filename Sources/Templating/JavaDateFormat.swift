/// The commonly used part of Java's `SimpleDateFormat`: `y M d H h m s S a E D u Z X z` and
/// quoted text, to format and to parse (the pattern read by ``JavaDatePattern``).
struct JavaDateFormat {
    typealias Token = JavaDatePattern.Piece

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let letters: Set<Character> = [
        "y", "M", "d", "H", "h", "k", "K", "m", "s", "S", "a", "E", "D", "u", "Z", "X", "z", "G",
    ]

    let tokens: [Token]

    /// Reads a pattern; a letter this formatter does not know is literal text.
    init(_ pattern: String) {
        tokens = JavaDatePattern(pattern).pieces.map { piece in
            guard case .field(let letter, let count) = piece, !Self.letters.contains(letter) else { return piece }
            return .literal(String(repeating: letter, count: count))
        }
    }

    /// A letter the pattern uses that this formatter does not know, if any.
    static func unknownLetter(in pattern: String) -> Character? {
        for case .field(let letter, _) in JavaDatePattern(pattern).pieces
        where letter.isASCII && !letters.contains(letter) {
            return letter
        }
        return nil
    }

    func format(_ milliseconds: Int64, offsetSeconds: Int) -> String {
        let time = CivilTime(milliseconds: milliseconds &+ Int64(offsetSeconds) * 1000)
        var out = ""
        for token in tokens {
            switch token {
            case .literal(let text): out += text
            case .field(let letter, let count):
                switch letter {
                case "y": out += count == 2 ? Self.pad(time.year % 100, 2) : Self.pad(time.year, count)
                case "M":
                    if count >= 4 {
                        out += Self.months[time.month - 1]
                    } else if count == 3 {
                        out += String(Self.months[time.month - 1].prefix(3))
                    } else {
                        out += Self.pad(time.month, count)
                    }
                case "d": out += Self.pad(time.day, count)
                case "H": out += Self.pad(time.hour, count)
                case "k": out += Self.pad(time.hour == 0 ? 24 : time.hour, count)
                case "K": out += Self.pad(time.hour % 12, count)
                case "h": out += Self.pad(time.hour % 12 == 0 ? 12 : time.hour % 12, count)
                case "m": out += Self.pad(time.minute, count)
                case "s": out += Self.pad(time.second, count)
                case "S": out += Self.pad(time.millisecond, max(count, 3)).prefix(max(count, 3))
                case "a": out += time.hour < 12 ? "AM" : "PM"
                case "E":
                    let name = Self.weekdays[time.weekday - 1]
                    out += count >= 4 ? name : String(name.prefix(3))
                case "u": out += Self.pad(time.weekday, count)
                case "D": out += Self.pad(time.dayOfYear, count)
                case "G": out += time.year > 0 ? "AD" : "BC"
                case "Z": out += Self.offsetText(offsetSeconds, colon: false, zulu: false)
                case "X": out += Self.offsetText(offsetSeconds, colon: count >= 3, zulu: true, short: count == 1)
                default:
                    out += offsetSeconds == 0 ? "UTC" : "GMT" + Self.offsetText(offsetSeconds, colon: true, zulu: false)
                }
            }
        }
        return out
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func offsetText(_ seconds: Int, colon: Bool, zulu: Bool, short: Bool = false) -> String {
        if zulu && seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let hours = pad(abs(seconds) / 3600, 2)
        let minutes = pad(abs(seconds) / 60 % 60, 2)
        if short { return sign + hours }
        return sign + hours + (colon ? ":" : "") + minutes
    }

    /// Reads `text` in this format; nil when it does not fit. Fields the pattern lacks default
    /// to 1970-01-01T00:00:00, the zone to UTC unless the text carries one.
    func parse(_ text: String) -> Int64? {
        var input = Array(text)[...]
        var time = CivilTime(year: 1970, month: 1, day: 1)
        var offset = 0
        var pm: Bool?
        func number(_ maximumDigits: Int) -> Int? {
            var digits = ""
            var negative = false
            if input.first == "-" || input.first == "+" {
                negative = input.first == "-"
                input.removeFirst()
            }
            while let next = input.first, next.isASCII, next.isNumber, digits.count < maximumDigits {
                digits.append(next)
                input.removeFirst()
            }
            guard let value = Int(digits) else { return nil }
            return negative ? -value : value
        }
        func name(_ names: [String]) -> Int? {
            for (index, candidate) in names.enumerated() {
                for form in [candidate, String(candidate.prefix(3))]
                where input.starts(with: form) || String(input.prefix(form.count)).lowercased() == form.lowercased() {
                    input.removeFirst(form.count)
                    return index
                }
            }
            return nil
        }
        for (index, token) in tokens.enumerated() {
            // A numeric field followed directly by another takes only its own width.
            var width = 9
            if case .field(_, let count) = token, index + 1 < tokens.count, case .field = tokens[index + 1] {
                width = count
            }
            switch token {
            case .literal(let literal):
                guard input.starts(with: literal) else { return nil }
                input.removeFirst(literal.count)
            case .field(let letter, let count):
                switch letter {
                case "y":
                    guard let year = number(count == 2 ? 2 : width) else { return nil }
                    time.year = count == 2 && year < 100 ? 2000 + year : year
                case "M":
                    if count >= 3 {
                        guard let month = name(Self.months) else { return nil }
                        time.month = month + 1
                    } else {
                        guard let month = number(min(width, 2)), (1...12).contains(month) else { return nil }
                        time.month = month
                    }
                case "d":
                    guard let day = number(min(width, 2)), (1...31).contains(day) else { return nil }
                    time.day = day
                case "H", "k", "h", "K":
                    guard let hour = number(min(width, 2)), (0...24).contains(hour) else { return nil }
                    time.hour = hour % 24
                case "m":
                    guard let minute = number(min(width, 2)), (0...59).contains(minute) else { return nil }
                    time.minute = minute
                case "s":
                    guard let second = number(min(width, 2)), (0...60).contains(second) else { return nil }
                    time.second = min(second, 59)
                case "S":
                    let before = input.count
                    guard let fraction = number(width) else { return nil }
                    let digits = before - input.count
                    time.millisecond =
                        digits >= 3 ? fraction / Int(pow10(digits - 3)) : fraction * Int(pow10(3 - digits))
                case "a":
                    guard let marker = name(["AM", "PM"]) else { return nil }
                    pm = marker == 1
                case "E":
                    guard name(Self.weekdays) != nil else { return nil }
                case "u", "D":
                    guard number(width) != nil else { return nil }
                case "G":
                    guard name(["AD", "BC"]) != nil else { return nil }
                default:
                    if input.first == "Z" {
                        input.removeFirst()
                        continue
                    }
                    if input.starts(with: "UTC") || input.starts(with: "GMT") { input.removeFirst(3) }
                    guard let sign = input.first, sign == "+" || sign == "-" else { continue }
                    input.removeFirst()
                    var digits = ""
                    while let next = input.first, next.isASCII, next.isNumber || next == ":", digits.count < 5 {
                        if next != ":" { digits.append(next) }
                        input.removeFirst()
                    }
                    guard let fixed = TemplateDate.fixedOffset(String(sign) + digits) else { return nil }
                    offset = fixed
                }
            }
        }
        guard input.isEmpty, (1...9999).contains(time.year) else { return nil }
        if let pm { time.hour = time.hour % 12 + (pm ? 12 : 0) }
        return TemplateDate.inRange(time.milliseconds - Int64(offset) * 1000)
    }

    private func pow10(_ exponent: Int) -> Int {
        var value = 1
        for _ in 0..<max(0, min(exponent, 18)) { value *= 10 }
        return value
    }
}
