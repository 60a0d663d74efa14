/// A regular expression as parsed, before ``RegexProgram`` compiles it. Characters other
/// than plain literals are indexes into the parser's table of ``CharacterClass``es.
indirect enum RegexNode: Sendable {
    /// One character, exactly this scalar.
    case scalar(UInt32)
    /// One character from the class at this index.
    case character(Int)
    /// A position that must hold, consuming nothing.
    case assertion(RegexAssertion)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `node{minimum,maximum}`, `maximum` nil for no upper bound. A possessive repetition is
    /// only ever of one `.character` (the parser refuses others, and makes a scalar a class).
    case repetition(RegexNode, minimum: Int, maximum: Int?, possessive: Bool)
    /// A capturing group, numbered from 1 in the order its `(` appears (named groups too):
    /// transparent to matching, a pair of capture slots to ``CapturingRegex``.
    case group(RegexNode, index: Int)
    /// A reluctant repetition (`*?`, `+?`, `??`, `{n,m}?`, wrapping a `.repetition`): the same
    /// set of matches, but ``CapturingRegex`` prefers fewer iterations, as Java does.
    case reluctant(RegexNode)

    /// Whether a repeated part holds an unbounded quantifier of its own (`(a+)+`, `(.*a){12}`):
    /// harmless here, but exponential for a backtracking engine on a near miss.
    func hasNestedQuantifier(insideRepetition: Bool = false) -> Bool {
        switch self {
        case .scalar, .character, .assertion: return false
        case .sequence(let items), .alternation(let items):
            return items.contains { $0.hasNestedQuantifier(insideRepetition: insideRepetition) }
        case .group(let node, _), .reluctant(let node):
            return node.hasNestedQuantifier(insideRepetition: insideRepetition)
        case .repetition(let node, _, let maximum, let possessive):
            if insideRepetition && maximum == nil && !possessive { return true }
            let repeats = maximum.map { $0 > 1 } ?? true
            return node.hasNestedQuantifier(insideRepetition: insideRepetition || repeats)
        }
    }

    /// The longest run of literal scalars every match must contain (empty when there is
    /// none): a fast substring test rules out most texts before the program runs.
    var requiredLiteral: [UInt32] {
        var best: [UInt32] = []
        var run: [UInt32] = []
        func walk(_ node: RegexNode) {
            switch node {
            case .scalar(let scalar): run.append(scalar)
            case .sequence(let items): items.forEach(walk)
            case .group(let inner, _): walk(inner)
            default:
                if run.count > best.count { best = run }
                run = []
            }
        }
        walk(self)
        return run.count > best.count ? run : best
    }
}

/// A zero-width condition on the position between two characters, as Java defines it.
enum RegexAssertion: Sendable, Hashable {
    /// `\A`, `\G`, and `^` without `(?m)`.
    case inputStart
    /// `^` with `(?m)`: the start, or after a line terminator that does not end the input.
    case lineStart
    /// `\z`.
    case inputEnd
    /// `\Z`, and `$` without `(?m)`: the end, or before a line terminator that ends the input.
    case inputEndOrFinalTerminator
    /// `$` with `(?m)`: the end, or before any line terminator.
    case lineEnd
    /// `\b` (word characters as `\w`).
    case wordBoundary
    /// `\B`.
    case notWordBoundary

    /// Whether it holds at the start of any text.
    var holdsAtStart: Bool { self == .inputStart || self == .lineStart }

    /// Whether it holds at the end of any text.
    var holdsAtEnd: Bool { self == .inputEnd || self == .inputEndOrFinalTerminator || self == .lineEnd }
}

/// The set of characters one class position accepts, as a tree of ranges, categories and set
/// operations (Java's case-insensitivity applies to each leaf before a class is negated).
indirect enum CharacterPredicate: Sendable {
    case range(UInt32, UInt32)
    case any
    case categories([Unicode.GeneralCategory])
    case alphabetic
    /// The inner set, or a character whose upper or lower case is in it (`unicode`: any
    /// script, else ASCII letters only, as Java's `(?i)` without `(?u)`).
    case caseFolded(CharacterPredicate, unicode: Bool)
    case not(CharacterPredicate)
    case union([CharacterPredicate])
    case intersection([CharacterPredicate])

    static func scalar(_ value: UInt32) -> CharacterPredicate { .range(value, value) }

    /// Java's line terminators: `\n`, `\r`, U+0085, U+2028, U+2029.
    static let lineTerminator = CharacterPredicate.union([
        .scalar(0x0A), .scalar(0x0D), .scalar(0x85), .range(0x2028, 0x2029),
    ])

    func contains(_ value: UInt32) -> Bool {
        switch self {
        case .range(let lower, let upper): return lower <= value && value <= upper
        case .any: return true
        case .categories(let categories):
            guard let scalar = Unicode.Scalar(value) else { return false }
            return categories.contains(scalar.properties.generalCategory)
        case .alphabetic: return Unicode.Scalar(value)?.properties.isAlphabetic ?? false
        case .caseFolded(let inner, let unicode):
            if inner.contains(value) { return true }
            return Self.caseVariants(of: value, unicode: unicode).contains { inner.contains($0) }
        case .not(let inner): return !inner.contains(value)
        case .union(let parts): return parts.contains { $0.contains(value) }
        case .intersection(let parts): return parts.allSatisfy { $0.contains(value) }
        }
    }

    /// The other cases of a character: ASCII letters always, others only with `unicode`.
    static func caseVariants(of value: UInt32, unicode: Bool) -> [UInt32] {
        if value < 0x80 {
            let isLetter = (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A
            return isLetter ? [value ^ 0x20] : []
        }
        guard unicode, let scalar = Unicode.Scalar(value) else { return [] }
        return [scalar.properties.uppercaseMapping, scalar.properties.lowercaseMapping].compactMap { mapping in
            let scalars = mapping.unicodeScalars
            return scalars.count == 1 ? scalars.first?.value : nil
        }
    }
}

/// A ``CharacterPredicate`` with its ASCII answers worked out once, so the common
/// characters cost one bit test.
struct CharacterClass: Sendable {
    let predicate: CharacterPredicate
    private let low: UInt64
    private let high: UInt64

    init(_ predicate: CharacterPredicate) {
        self.predicate = predicate
        var low: UInt64 = 0
        var high: UInt64 = 0
        for value in UInt32(0)..<128 where predicate.contains(value) {
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }
        self.low = low
        self.high = high
    }

    @inline(__always)
    func contains(_ value: UInt32) -> Bool {
        if value < 64 { return low & (1 << UInt64(value)) != 0 }
        if value < 128 { return high & (1 << UInt64(value - 64)) != 0 }
        return predicate.contains(value)
    }
}

/// The inline flags petmock honours: `i` (case-insensitive), `u` (Unicode case), `s` (dot
/// matches line terminators), `m` (multiline anchors), `x` (whitespace and `#` comments).
struct RegexFlags: OptionSet, Sendable {
    let rawValue: UInt8
    static let caseInsensitive = RegexFlags(rawValue: 1)
    static let unicodeCase = RegexFlags(rawValue: 2)
    static let dotAll = RegexFlags(rawValue: 4)
    static let multiline = RegexFlags(rawValue: 8)
    static let comments = RegexFlags(rawValue: 16)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(letter: Unicode.Scalar) {
        switch letter {
        case "i": self = .caseInsensitive
        case "u": self = .unicodeCase
        case "s": self = .dotAll
        case "m": self = .multiline
        case "x": self = .comments
        default: return nil
        }
    }
}

/// Parses Java (and so WireMock) regular expression syntax into a ``RegexNode`` and its
/// classes. What cannot be matched in linear time (backreferences, lookaround, atomic groups,
/// possessive quantifiers on more than one character) is refused with a message naming it.
struct RegexParser {
    /// Groups and classes nest at most this deep (the parser and compiler recurse).
    static let maximumDepth = 100
    /// Repetition bounds above this are refused outright (the program would be too large).
    static let maximumCount = 100_000

    private let pattern: String
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var flags: RegexFlags = []
    private var depth = 0
    private(set) var classes: [CharacterClass] = []
    /// How many capturing groups the pattern has.
    private(set) var groupCount = 0
    /// A capturing group a possessive quantifier applies to (`(a)++`): matching treats it as
    /// its one character, so ``CapturingRegex`` cannot report it, and refuses the pattern.
    private(set) var possessiveGroupOffset: Int?

    init(_ pattern: String) {
        self.pattern = pattern
        scalars = Array(pattern.unicodeScalars)
    }

    /// The whole pattern's tree.
    mutating func parse() throws(RegexError) -> RegexNode {
        let node = try parseAlternation()
        if position < scalars.count { throw failure("unmatched ')'") }
        return node
    }

    private func failure(_ reason: String) -> RegexError {
        RegexError(pattern: pattern, reason: "\(reason) at offset \(min(position, scalars.count))")
    }

    private func unsupported(_ feature: String) -> RegexError {
        RegexError(
            pattern: pattern,
            reason: "\(feature) (at offset \(position)) cannot be matched in linear time, and petmock refuses it")
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func next() -> Unicode.Scalar? {
        guard position < scalars.count else { return nil }
        position += 1
        return scalars[position - 1]
    }

    /// With `(?x)`, skips whitespace and `#` comments to the end of the line.
    private mutating func skipComments() {
        guard flags.contains(.comments) else { return }
        while let scalar = peek {
            if scalar.properties.isWhitespace {
                position += 1
            } else if scalar == "#" {
                while let skipped = next(), skipped != "\n" {}
            } else {
                return
            }
        }
    }

    private mutating func enter() throws(RegexError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("groups or classes nested deeper than \(Self.maximumDepth)") }
    }

    private mutating func parseAlternation() throws(RegexError) -> RegexNode {
        var branches = [try parseSequence()]
        while peek == "|" {
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while true {
            skipComments()
            guard let scalar = peek, scalar != "|", scalar != ")" else { break }
            var atoms = try parseAtoms()
            skipComments()
            if let last = atoms.last, let repeated = try parseQuantifier(last) {
                atoms[atoms.count - 1] = repeated
            } else if atoms.isEmpty, let quantifier = peek, "*+?".unicodeScalars.contains(quantifier) {
                throw failure("dangling quantifier '\(quantifier)'")
            }
            items += atoms
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    /// The quantifier after an atom applied to it, or nil when none follows.
    private mutating func parseQuantifier(_ atom: RegexNode) throws(RegexError) -> RegexNode? {
        let start = position
        let minimum: Int
        var maximum: Int?
        switch peek {
        case "*": (minimum, maximum) = (0, nil)
        case "+": (minimum, maximum) = (1, nil)
        case "?": (minimum, maximum) = (0, 1)
        case "{": (minimum, maximum) = try parseBounds()
        default: return nil
        }
        position += 1
        var possessive = false
        var reluctant = false
        if peek == "?" {
            position += 1
            reluctant = true
        } else if peek == "+" {
            position += 1
            possessive = true
        }
        if let next = peek, "*+?{".unicodeScalars.contains(next) { throw failure("dangling quantifier '\(next)'") }
        var item = atom
        if possessive {
            if case .group(let inner, _) = atom {
                possessiveGroupOffset = possessiveGroupOffset ?? start
                item = inner
            }
            switch item {
            case .scalar(let value): item = .character(register(.scalar(value)))
            case .character: break
            default: throw unsupported("a possessive quantifier on more than one character")
            }
        }
        let repetition = RegexNode.repetition(item, minimum: minimum, maximum: maximum, possessive: possessive)
        return reluctant ? .reluctant(repetition) : repetition
    }

    /// `{n}`, `{n,}` or `{n,m}`, leaving the position on the closing brace.
    private mutating func parseBounds() throws(RegexError) -> (Int, Int?) {
        let start = position
        position += 1
        guard let minimum = parseNumber() else { throw failure("illegal repetition") }
        var maximum: Int? = minimum
        if peek == "," {
            position += 1
            maximum = peek == "}" ? nil : parseNumber()
            if maximum == nil && peek != "}" { throw failure("illegal repetition") }
        }
        guard peek == "}" else {
            position = start
            throw failure("illegal repetition")
        }
        if let maximum, maximum < minimum { throw failure("illegal repetition range {\(minimum),\(maximum)}") }
        return (minimum, maximum)
    }

    private mutating func parseNumber() -> Int? {
        var value: Int?
        while let scalar = peek, ("0"..."9").contains(scalar) {
            value = min((value ?? 0) * 10 + Int(scalar.value - 48), Self.maximumCount + 1)
            position += 1
        }
        return value
    }

    /// The atoms one construct stands for: usually one; none for `(?i)`; several for `\Q…\E`
    /// (a quantifier then applies to the last).
    private mutating func parseAtoms() throws(RegexError) -> [RegexNode] {
        guard let scalar = next() else { return [] }
        switch scalar {
        case "(": return try parseGroup()
        case "[": return [.character(register(try parseClass()))]
        case ".": return [.character(register(flags.contains(.dotAll) ? .any : .not(.lineTerminator)))]
        case "^": return [.assertion(flags.contains(.multiline) ? .lineStart : .inputStart)]
        case "$": return [.assertion(flags.contains(.multiline) ? .lineEnd : .inputEndOrFinalTerminator)]
        case "\\": return try parseEscape()
        case "*", "+", "?":
            position -= 1
            throw failure("dangling quantifier '\(scalar)'")
        case "{":
            position -= 1
            throw failure("illegal repetition (a literal '{' is written '\\{')")
        default: return [literal(scalar.value)]
        }
    }

    private mutating func register(_ predicate: CharacterPredicate) -> Int {
        classes.append(CharacterClass(predicate))
        return classes.count - 1
    }

    /// A literal character, folded under `(?i)` when it has another case.
    private mutating func literal(_ value: UInt32) -> RegexNode {
        let unicode = flags.contains(.unicodeCase)
        if flags.contains(.caseInsensitive) && !CharacterPredicate.caseVariants(of: value, unicode: unicode).isEmpty {
            return .character(register(.caseFolded(.scalar(value), unicode: unicode)))
        }
        return .scalar(value)
    }

    /// After `(`: a group, or inline flags (which last to the end of the enclosing group).
    private mutating func parseGroup() throws(RegexError) -> [RegexNode] {
        try enter()
        defer { depth -= 1 }
        let saved = flags
        var index: Int?
        if peek != "?" {
            groupCount += 1
            index = groupCount
        }
        if peek == "?" {
            position += 1
            switch next() {
            case ":": break
            case "=", "!":
                position -= 3
                throw unsupported("lookahead '(?\(scalars[position + 2])'")
            case ">":
                position -= 3
                throw unsupported("an atomic group '(?>'")
            case "<":
                if peek == "=" || peek == "!" {
                    position -= 3
                    throw unsupported("lookbehind '(?<\(scalars[position + 3])'")
                }
                var name = ""
                while let scalar = next(), scalar != ">" {
                    guard scalar.isASCII, scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    else { throw failure("invalid group name") }
                    name.unicodeScalars.append(scalar)
                }
                if name.isEmpty || scalars[position - 1] != ">" { throw failure("invalid group name") }
                groupCount += 1
                index = groupCount
            case nil: throw failure("unclosed group")
            default:
                position -= 1
                var on = true
                var scoped = false
                while let scalar = next() {
                    if scalar == ")" {
                        return []
                    } else if scalar == ":" {
                        scoped = true
                        break
                    } else if scalar == "-" && on {
                        on = false
                    } else if let flag = RegexFlags(letter: scalar) {
                        if on { flags.insert(flag) } else { flags.remove(flag) }
                    } else if "dUc".unicodeScalars.contains(scalar) {
                        position -= 1
                        throw failure("unsupported flag '\(scalar)'")
                    } else {
                        position -= 1
                        throw failure("unknown group syntax '(?\(scalar)'")
                    }
                }
                if !scoped { throw failure("unclosed group") }
            }
        }
        let inner = try parseAlternation()
        guard next() == ")" else { throw failure("unclosed group") }
        flags = saved
        return [index.map { .group(inner, index: $0) } ?? inner]
    }

    /// After `\` outside a class.
    private mutating func parseEscape() throws(RegexError) -> [RegexNode] {
        guard let scalar = next() else { throw failure("trailing backslash") }
        switch scalar {
        case "b":
            if peek == "{" { throw unsupported("'\\b{g}'") }
            return [.assertion(.wordBoundary)]
        case "B": return [.assertion(.notWordBoundary)]
        case "A", "G": return [.assertion(.inputStart)]
        case "z": return [.assertion(.inputEnd)]
        case "Z": return [.assertion(.inputEndOrFinalTerminator)]
        case "Q": return quoted().map { literal($0) }
        case "1"..."9", "k":
            position -= 2
            throw unsupported("a backreference '\\\(scalar)'")
        case "R", "X", "N":
            position -= 2
            throw failure("unsupported escape '\\\(scalar)'")
        default:
            position -= 1
            if let predicate = try parsePredefinedClass() { return [.character(register(predicate))] }
            return [literal(try parseCharacterEscape())]
        }
    }

    /// After `\Q`: the scalars up to `\E` or the end.
    private mutating func quoted() -> [UInt32] {
        var values: [UInt32] = []
        while let scalar = next() {
            if scalar == "\\" && peek == "E" {
                position += 1
                break
            }
            values.append(scalar.value)
        }
        return values
    }

    /// At the letter after `\`: `\d \D \w \W \s \S \h \H \v \V \p{…} \P{…}`, or nil for
    /// anything else (the position unchanged).
    private mutating func parsePredefinedClass() throws(RegexError) -> CharacterPredicate? {
        guard let scalar = peek else { return nil }
        let digit = CharacterPredicate.range(0x30, 0x39)
        let word = CharacterPredicate.union([.range(0x61, 0x7A), .range(0x41, 0x5A), digit, .scalar(0x5F)])
        let space = CharacterPredicate.union([.range(0x09, 0x0D), .scalar(0x20)])
        let horizontal = CharacterPredicate.union([
            .scalar(0x09), .scalar(0x20), .scalar(0xA0), .scalar(0x1680), .scalar(0x180E), .range(0x2000, 0x200A),
            .scalar(0x202F), .scalar(0x205F), .scalar(0x3000),
        ])
        let vertical = CharacterPredicate.union([.range(0x0A, 0x0D), .scalar(0x85), .range(0x2028, 0x2029)])
        let predicate: CharacterPredicate
        switch scalar {
        case "d": predicate = digit
        case "D": predicate = .not(digit)
        case "w": predicate = word
        case "W": predicate = .not(word)
        case "s": predicate = space
        case "S": predicate = .not(space)
        case "h": predicate = horizontal
        case "H": predicate = .not(horizontal)
        case "v": predicate = vertical
        case "V": predicate = .not(vertical)
        case "p", "P":
            position += 1
            let property = try parseProperty()
            return scalar == "P" ? .not(property) : property
        default: return nil
        }
        position += 1
        return predicate
    }

    /// After `\p` or `\P`: `{Name}` or a one-letter name.
    private mutating func parseProperty() throws(RegexError) -> CharacterPredicate {
        var name = ""
        if peek == "{" {
            position += 1
            while let scalar = next(), scalar != "}" { name.unicodeScalars.append(scalar) }
            if scalars[position - 1] != "}" { throw failure("unclosed property name") }
        } else if let scalar = next() {
            name = String(scalar)
        }
        if let predicate = Self.property(named: name) { return predicate }
        throw failure("unknown or unsupported character property '\(name)'")
    }

    /// Java's POSIX classes (ASCII only), general categories (`L`, `Lu`, `IsLu`, `gc=Lu`) and a
    /// few binary properties.
    static func property(named name: String) -> CharacterPredicate? {
        let digit = CharacterPredicate.range(0x30, 0x39)
        let lower = CharacterPredicate.range(0x61, 0x7A)
        let upper = CharacterPredicate.range(0x41, 0x5A)
        let punct = CharacterPredicate.union([
            .range(0x21, 0x2F), .range(0x3A, 0x40), .range(0x5B, 0x60), .range(0x7B, 0x7E),
        ])
        switch name {
        case "Lower": return lower
        case "Upper": return upper
        case "ASCII": return .range(0, 0x7F)
        case "Alpha": return .union([lower, upper])
        case "Digit": return digit
        case "Alnum": return .union([lower, upper, digit])
        case "Punct": return punct
        case "Graph": return .range(0x21, 0x7E)
        case "Print": return .range(0x20, 0x7E)
        case "Blank": return .union([.scalar(0x20), .scalar(0x09)])
        case "Cntrl": return .union([.range(0, 0x1F), .scalar(0x7F)])
        case "XDigit": return .union([digit, .range(0x41, 0x46), .range(0x61, 0x66)])
        case "Space": return .union([.range(0x09, 0x0D), .scalar(0x20)])
        case "IsAlphabetic", "Alphabetic": return .alphabetic
        case "IsLetter", "Letter": return categories("L")
        case "IsDigit": return categories("Nd")
        default: break
        }
        var code = Substring(name)
        for prefix in ["general_category=", "gc=", "Is"] where code.hasPrefix(prefix) {
            code = code.dropFirst(prefix.count)
            break
        }
        return categories(code)
    }

    private static func categories(_ code: Substring) -> CharacterPredicate? {
        let matching = generalCategories.filter { code.count == 1 ? $0.code.hasPrefix(code) : $0.code == code }
        return matching.isEmpty || code.isEmpty || code.count > 2 ? nil : .categories(matching.map(\.category))
    }

    private static let generalCategories: [(code: String, category: Unicode.GeneralCategory)] = [
        ("Lu", .uppercaseLetter), ("Ll", .lowercaseLetter), ("Lt", .titlecaseLetter), ("Lm", .modifierLetter),
        ("Lo", .otherLetter), ("Mn", .nonspacingMark), ("Mc", .spacingMark), ("Me", .enclosingMark),
        ("Nd", .decimalNumber), ("Nl", .letterNumber), ("No", .otherNumber), ("Pc", .connectorPunctuation),
        ("Pd", .dashPunctuation), ("Ps", .openPunctuation), ("Pe", .closePunctuation),
        ("Pi", .initialPunctuation), ("Pf", .finalPunctuation), ("Po", .otherPunctuation), ("Sm", .mathSymbol),
        ("Sc", .currencySymbol), ("Sk", .modifierSymbol), ("So", .otherSymbol), ("Zs", .spaceSeparator),
        ("Zl", .lineSeparator), ("Zp", .paragraphSeparator), ("Cc", .control), ("Cf", .format),
        ("Cs", .surrogate), ("Co", .privateUse), ("Cn", .unassigned),
    ]

    /// At the character after `\`: one escaped character's value.
    private mutating func parseCharacterEscape() throws(RegexError) -> UInt32 {
        guard let scalar = next() else { throw failure("trailing backslash") }
        switch scalar {
        case "t": return 0x09
        case "n": return 0x0A
        case "r": return 0x0D
        case "f": return 0x0C
        case "a": return 0x07
        case "e": return 0x1B
        case "0":
            var value: UInt32 = 0
            var digits = 0
            while digits < 3, let octal = peek, ("0"..."7").contains(octal), value * 8 + (octal.value - 48) <= 0o377 {
                value = value * 8 + (octal.value - 48)
                digits += 1
                position += 1
            }
            if digits == 0 { throw failure("illegal octal escape") }
            return value
        case "x":
            if peek == "{" {
                position += 1
                let value = try parseHex(maximumDigits: 8, exactly: false)
                guard next() == "}" else { throw failure("unclosed hexadecimal escape") }
                return try scalarValue(value)
            }
            return try parseHex(maximumDigits: 2, exactly: true)
        case "u":
            let value = try parseHex(maximumDigits: 4, exactly: true)
            if (0xD800...0xDBFF).contains(value), peek == "\\", peek(1) == "u" {
                position += 2
                let low = try parseHex(maximumDigits: 4, exactly: true)
                if (0xDC00...0xDFFF).contains(low) { return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00) }
            }
            return try scalarValue(value)
        case "c":
            guard let control = next() else { throw failure("illegal control escape") }
            return control.value ^ 64
        default:
            let isASCIILetterOrDigit =
                scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
            if isASCIILetterOrDigit {
                position -= 1
                throw failure("unknown escape '\\\(scalar)'")
            }
            return scalar.value
        }
    }

    private mutating func parseHex(maximumDigits: Int, exactly: Bool) throws(RegexError) -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        while digits < maximumDigits, let scalar = peek, let digit = Character(scalar).hexDigitValue {
            value = value * 16 + UInt32(digit)
            digits += 1
            position += 1
        }
        if digits == 0 || (exactly && digits < maximumDigits) { throw failure("illegal hexadecimal escape") }
        return value
    }

    private func scalarValue(_ value: UInt32) throws(RegexError) -> UInt32 {
        guard Unicode.Scalar(value) != nil else {
            throw failure("escape of U+\(String(value, radix: 16)), no character")
        }
        return value
    }

    /// After `[`: the class up to its `]`, with ranges, negation, nesting and `&&`.
    private mutating func parseClass() throws(RegexError) -> CharacterPredicate {
        try enter()
        defer { depth -= 1 }
        var negated = false
        if peek == "^" {
            negated = true
            position += 1
        }
        let body = try parseClassBody()
        return negated ? .not(body) : body
    }

    /// Class items up to and including the closing `]`; `&&` intersects what comes before
    /// with the rest. A `]` before any item is a literal, as in Java (`[]a]`).
    private mutating func parseClassBody() throws(RegexError) -> CharacterPredicate {
        var items: [CharacterPredicate] = []
        while true {
            skipComments()
            guard let scalar = next() else { throw failure("unclosed character class") }
            switch scalar {
            case "]" where items.isEmpty: items.append(try parseRange(from: scalar.value))
            case "]": return items.count == 1 ? items[0] : .union(items)
            case "[": items.append(try parseClass())
            case "&" where peek == "&":
                position += 1
                let rest = try parseClassBody()
                return .intersection([items.count == 1 ? items[0] : .union(items), rest])
            case "\\":
                if peek == "Q" {
                    position += 1
                    items += quoted().map { fold(.scalar($0)) }
                } else if let predicate = try parsePredefinedClass() {
                    items.append(predicate)
                } else {
                    items.append(try parseRange(from: try parseCharacterEscape()))
                }
            default: items.append(try parseRange(from: scalar.value))
            }
        }
    }

    /// A class member starting with `lower`: `lower-upper`, or `lower` alone.
    private mutating func parseRange(from lower: UInt32) throws(RegexError) -> CharacterPredicate {
        guard peek == "-", let after = peek(1), after != "]", after != "[" else { return fold(.scalar(lower)) }
        position += 1
        let upper: UInt32
        if next() == "\\" {
            if try parsePredefinedClass() != nil { throw failure("illegal character range") }
            upper = try parseCharacterEscape()
        } else {
            upper = after.value
        }
        if upper < lower { throw failure("illegal character range") }
        return fold(.range(lower, upper))
    }

    private func fold(_ predicate: CharacterPredicate) -> CharacterPredicate {
        guard flags.contains(.caseInsensitive) else { return predicate }
        return .caseFolded(predicate, unicode: flags.contains(.unicodeCase))
    }
}
