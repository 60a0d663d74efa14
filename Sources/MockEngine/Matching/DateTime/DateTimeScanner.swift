/// Reads the parts of a date-time from text, one token at a time (bounded: the caller caps
/// the text's length, and every step consumes input or fails).
struct DateTimeScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    var atEnd: Bool { index == characters.count }
    var peek: Character? { atEnd ? nil : characters[index] }

    mutating func advance() { index += 1 }

    /// Takes the character if it comes next.
    mutating func take(_ character: Character) -> Bool {
        guard peek == character else { return false }
        index += 1
        return true
    }

    /// A decimal number of so many digits (as many as there are, up to the most).
    mutating func number(_ digits: ClosedRange<Int>) -> Int? {
        var value = 0
        var count = 0
        while count < digits.upperBound, let digit = peek?.wholeNumberValue, peek?.isASCII == true {
            value = value * 10 + digit
            count += 1
            index += 1
        }
        return count >= digits.lowerBound ? value : nil
    }

    /// The digits of a fraction of a second, as nanoseconds.
    mutating func fraction() -> Int? {
        var nanos = 0
        var count = 0
        while let digit = peek?.wholeNumberValue, peek?.isASCII == true {
            if count < 9 { nanos = nanos * 10 + digit }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 9) { nanos *= 10 }
        return nanos
    }

    /// A run of letters.
    mutating func word() -> String? {
        let start = index
        while let character = peek, character.isLetter { index += 1 }
        return index > start ? String(characters[start..<index]) : nil
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// A month's English name or its first three letters, as 1 to 12.
    mutating func monthName() -> Int? {
        guard let name = word()?.lowercased(), name.count >= 3 else { return nil }
        return Self.months.firstIndex(of: String(name.prefix(3))).map { $0 + 1 }
    }

    /// `Z`, `GMT`, `UTC`, `+01:00`, `+0100` or `+01`, as seconds east of UTC.
    mutating func offset() -> Int? {
        if take("Z") || take("z") { return 0 }
        if peek == "G" || peek == "U" {
            guard let name = word(), ["GMT", "UTC", "UT"].contains(name) else { return nil }
            if peek == "+" || peek == "-" { return offset() }
            return 0
        }
        guard let sign = peek, sign == "+" || sign == "-" else { return nil }
        index += 1
        guard let hours = number(2...2), hours <= 18 else { return nil }
        _ = take(":")
        let minutes = number(2...2) ?? 0
        guard minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// Reads the whole text with a pattern's tokens; fields the pattern lacks take their
    /// smallest value (day 1, midnight). Nil unless the text is read to its end.
    mutating func read(_ tokens: [DateTimeFormat.Token]) -> CivilDateTime? {
        var value = CivilDateTime(year: 1970, month: 1, day: 1)
        var pm: Bool?
        for token in tokens {
            switch token {
            case .year(let width):
                guard let year = width == 2 ? number(2...2).map({ 2000 + $0 }) : number(max(1, width)...9)
                else { return nil }
                value.year = year
            case .month(let width):
                guard let month = width >= 3 ? monthName() : number(1...2) else { return nil }
                value.month = month
            case .day: guard let day = number(1...2) else { return nil }; value.day = day
            case .hour: guard let hour = number(1...2) else { return nil }; value.hour = hour
            case .minute: guard let minute = number(1...2) else { return nil }; value.minute = minute
            case .second: guard let second = number(1...2) else { return nil }; value.second = second
            case .fraction: guard let nanos = fraction() else { return nil }; value.nanosecond = nanos
            case .dayName: guard word() != nil else { return nil }
            case .amPm:
                guard let marker = word()?.uppercased(), marker == "AM" || marker == "PM" else { return nil }
                pm = marker == "PM"
            case .offset: guard let offset = offset() else { return nil }; value.offset = offset
            case .literal(let character): guard take(character) else { return nil }
            }
        }
        if let pm {
            guard (1...12).contains(value.hour) else { return nil }
            value.hour = value.hour % 12 + (pm ? 12 : 0)
        }
        return atEnd && value.isValid ? value : nil
    }
}
