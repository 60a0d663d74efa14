import Foundation

/// Java's `NumberFormat`/`DecimalFormat` as WireMock's `numberFormat` helper uses them: the
/// styles `integer`, `currency`, `percent` (and `number`, the default), or a pattern such as
/// `#,##0.00`, in a few locales, with the digit bounds, grouping and rounding mode WireMock's
/// hash arguments set. Digits are worked on as decimal text, so rounding is exact.
struct NumberFormat {
    /// A locale's symbols.
    struct Locale {
        let decimal: String
        let group: String
        let currency: String
        /// Whether the currency symbol goes after the number (with a no-break space).
        let currencyAfter: Bool
        let currencyDigits: Int
        let percentSuffix: String

        /// The locales petmock knows, by Java's name (`en_GB`) or BCP 47's (`en-GB`).
        static let known: [String: Locale] = [
            "en_US": Locale(
                decimal: ".", group: ",", currency: "$", currencyAfter: false, currencyDigits: 2, percentSuffix: "%"),
            "en_GB": Locale(
                decimal: ".", group: ",", currency: "£", currencyAfter: false, currencyDigits: 2, percentSuffix: "%"),
            "de_DE": Locale(
                decimal: ",", group: ".", currency: "€", currencyAfter: true, currencyDigits: 2,
                percentSuffix: "\u{00A0}%"),
        ]

        /// The locale called `name`, or nil.
        static func named(_ name: String) -> Locale? { known[name.replacing("-", with: "_")] }

        /// `en_US, en_GB, de_DE`.
        static var names: String { known.keys.sorted().joined(separator: ", ") }
    }

    /// Java's rounding modes, by `roundingMode=` value (any case).
    enum Rounding: String, CaseIterable {
        case up, down, ceiling, floor
        case halfUp = "half_up"
        case halfDown = "half_down"
        case halfEven = "half_even"

        init?(named name: String) {
            guard let mode = Self(rawValue: name.lowercased()) else { return nil }
            self = mode
        }
    }

    var prefix = ""
    var suffix = ""
    var minimumIntegerDigits = 1
    /// nil: no bound.
    var maximumIntegerDigits: Int?
    var minimumFractionDigits = 0
    var maximumFractionDigits = 3
    /// Digits per group; 0 for no grouping.
    var groupSize = 3
    var multiplier = 1
    var rounding = Rounding.halfEven
    let locale: Locale

    /// The most digits a bound may ask for (the output stays small).
    static let maximumDigits = 100

    /// The style or pattern `format` in `locale`, or what is wrong with it.
    static func make(_ format: String?, locale: Locale) -> Result<NumberFormat, NumberFormatProblem> {
        var result = NumberFormat(locale: locale)
        switch format?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "number", "default": break
        case "integer":
            result.maximumFractionDigits = 0
        case "currency":
            result.minimumFractionDigits = locale.currencyDigits
            result.maximumFractionDigits = locale.currencyDigits
            if locale.currencyAfter {
                result.suffix = "\u{00A0}" + locale.currency
            } else {
                result.prefix = locale.currency
            }
        case "percent":
            result.maximumFractionDigits = 0
            result.multiplier = 100
            result.suffix = locale.percentSuffix
        default:
            return parse(format ?? "", locale: locale)
        }
        return .success(result)
    }

    /// A `DecimalFormat` pattern: a prefix, `#`, `0` and `,` before an optional `.` and `0`s
    /// then `#`s, a suffix; `%` multiplies by 100, `¤` is the currency symbol, `'…'` quotes.
    private static func parse(_ pattern: String, locale: Locale) -> Result<NumberFormat, NumberFormatProblem> {
        var result = NumberFormat(locale: locale)
        var prefix = ""
        var suffix = ""
        var integer = ""
        var fraction: String?
        var phase = 0  // 0 prefix, 1 number, 2 suffix
        var characters = pattern.makeIterator()
        func affix(_ character: Character, into text: inout String) -> String? {
            switch character {
            case "%":
                guard result.multiplier == 1 else { return "holds '%' twice" }
                result.multiplier = 100
                text += "%"
            case "\u{2030}": return "uses '‰', which petmock does not support"
            case "\u{00A4}": text += locale.currency
            case ";": return "has a negative subpattern (';'), which petmock does not support"
            default: text.append(character)
            }
            return nil
        }
        while let character = characters.next() {
            if character == "'" {
                var quoted = ""
                while let next = characters.next(), next != "'" { quoted.append(next) }
                if phase == 1 { phase = 2 }
                if phase == 0 {
                    prefix += quoted.isEmpty ? "'" : quoted
                } else {
                    suffix += quoted.isEmpty ? "'" : quoted
                }
                continue
            }
            if "#0,.".contains(character) && phase < 2 {
                phase = 1
                if character == "." {
                    guard fraction == nil else { return .failure("holds two decimal points") }
                    fraction = ""
                } else if fraction != nil {
                    guard character != "," else { return .failure("groups the fraction (',' after '.')") }
                    fraction?.append(character)
                } else {
                    integer.append(character)
                }
                continue
            }
            if character == "E" && phase == 1 {
                return .failure("uses an exponent ('E'), which petmock does not support")
            }
            if "#0,.".contains(character) { return .failure("has digits after its suffix") }
            if phase == 1 { phase = 2 }
            let problem = phase == 0 ? affix(character, into: &prefix) : affix(character, into: &suffix)
            if let problem { return .failure(NumberFormatProblem(message: problem)) }
        }
        guard phase > 0 else { return .failure("has no digits ('#' or '0')") }
        let digits = integer.filter { $0 != "," }
        if let zero = digits.firstIndex(of: "0"), digits[zero...].contains("#") {
            return .failure("has '#' after '0' in the integer part")
        }
        if let fraction, let hash = fraction.firstIndex(of: "#"), fraction[hash...].contains("0") {
            return .failure("has '0' after '#' in the fraction")
        }
        result.prefix = prefix
        result.suffix = suffix
        result.minimumIntegerDigits = digits.filter { $0 == "0" }.count
        result.minimumFractionDigits = fraction?.filter { $0 == "0" }.count ?? 0
        result.maximumFractionDigits = fraction?.count ?? 0
        if let comma = integer.lastIndex(of: ",") {
            result.groupSize = integer[integer.index(after: comma)...].count
            if result.groupSize == 0 { return .failure("ends its integer part with ','") }
        } else {
            result.groupSize = 0
        }
        guard result.minimumIntegerDigits <= maximumDigits, result.maximumFractionDigits <= maximumDigits else {
            return .failure("asks for more than \(maximumDigits) digits")
        }
        return .success(result)
    }

    /// The number (decimal text, `-12.5`, `1e-7`) formatted, or nil when it is not a number.
    func format(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // Decimal(string:) reads a prefix ("12abc" is 12): the whole text must be a number.
        guard Self.isNumber(trimmed), var value = Decimal(string: trimmed), !value.isNaN else { return nil }
        if multiplier != 1 { value *= Decimal(multiplier) }
        let negative = value < 0
        let plain = (negative ? -value : value).description
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        var integer = Array(parts[0].utf8).map { $0 - 48 }
        var fraction = parts.count > 1 ? Array(parts[1].utf8).map { $0 - 48 } : []
        round(&integer, &fraction, negative: negative)
        while fraction.count > minimumFractionDigits, fraction.last == 0 { fraction.removeLast() }
        while integer.first == 0 { integer.removeFirst() }
        if let maximumIntegerDigits, integer.count > maximumIntegerDigits {
            integer.removeFirst(integer.count - maximumIntegerDigits)
        }
        while integer.count < minimumIntegerDigits { integer.insert(0, at: 0) }
        var digits = ""
        for (index, digit) in integer.enumerated() {
            let left = integer.count - index
            if index > 0, groupSize > 0, left % groupSize == 0 { digits += locale.group }
            digits.unicodeScalars.append(Unicode.Scalar(digit + 48))
        }
        if !fraction.isEmpty {
            digits += locale.decimal
            for digit in fraction { digits.unicodeScalars.append(Unicode.Scalar(digit + 48)) }
        }
        if digits.isEmpty { digits = "0" }
        return (negative ? "-" : "") + prefix + digits + suffix
    }

    /// Whether the text is a decimal number: a sign, digits with at most one point, an
    /// exponent (`-1.5`, `.5`, `2e-7`).
    static func isNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits = 0
        var points = 0
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            if byte == UInt8(ascii: ".") {
                points += 1
            } else if byte >= 48 && byte <= 57 {
                digits += 1
            } else {
                return false
            }
            bytes = bytes.dropFirst()
        }
        guard digits > 0, points <= 1 else { return false }
        guard !bytes.isEmpty else { return true }
        bytes = bytes.dropFirst()
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// Rounds to ``maximumFractionDigits`` by ``rounding``, and pads to the minimum.
    private func round(_ integer: inout [UInt8], _ fraction: inout [UInt8], negative: Bool) {
        while fraction.count < minimumFractionDigits { fraction.append(0) }
        guard fraction.count > maximumFractionDigits else { return }
        let dropped = fraction[maximumFractionDigits...]
        fraction.removeLast(fraction.count - maximumFractionDigits)
        let first = dropped.first ?? 0
        let restNonZero = dropped.dropFirst().contains { $0 != 0 }
        let anyNonZero = first != 0 || restNonZero
        let last = fraction.last ?? integer.last ?? 0
        let increment: Bool
        switch rounding {
        case .down: increment = false
        case .up: increment = anyNonZero
        case .ceiling: increment = anyNonZero && !negative
        case .floor: increment = anyNonZero && negative
        case .halfUp: increment = first >= 5
        case .halfDown: increment = first > 5 || (first == 5 && restNonZero)
        case .halfEven: increment = first > 5 || (first == 5 && (restNonZero || last % 2 == 1))
        }
        guard increment else { return }
        var digits = integer + fraction
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] == 9 {
                digits[index] = 0
                index -= 1
            } else {
                digits[index] += 1
                break
            }
        }
        if index < 0 { digits.insert(1, at: 0) }
        let integerCount = digits.count - fraction.count
        integer = Array(digits[..<integerCount])
        fraction = Array(digits[integerCount...])
    }
}

/// What `numberFormat` cannot do, in a phrase.
struct NumberFormatProblem: Error, ExpressibleByStringInterpolation {
    let message: String

    init(message: String) { self.message = message }

    init(stringLiteral value: String) { message = value }
}
