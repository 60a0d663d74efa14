/// Makes texts a pattern matches as a whole, from the tree ``LinearTimeRegex`` compiles (one
/// parser, one set of classes): each repetition and alternative chosen at random within the
/// length asked for, each class position filled with a character of the class, and every
/// sample checked by the engine itself before it is returned (assertions and word boundaries
/// are only known to hold once it is).
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let sampler = try RegexSampler("[A-Z]{2}-[0-9]{3,5}")
/// sampler.sample(length: 2...8, using: &random)   // "QK-8812"
/// ```
package struct RegexSampler: Sendable {
    /// The most characters a sample has, whatever the pattern allows.
    package static let maximumLength = 4096
    /// How many samples are drawn before giving up on a length.
    static let attempts = 12

    private let node: RegexNode
    /// The characters each class position is filled from, worked out once.
    private let members: [[Unicode.Scalar]]
    private let regex: LinearTimeRegex
    /// The fewest characters a whole match has.
    package let minimumLength: Int
    /// The most characters a whole match has, nil when unbounded.
    package let maximumLength: Int?

    /// Parses `pattern` as ``LinearTimeRegex`` does, or throws why it cannot.
    package init(_ pattern: String) throws(RegexError) {
        var parser = RegexParser(pattern)
        node = try parser.parse()
        members = parser.classes.map(Self.members(of:))
        regex = try LinearTimeRegex(pattern)
        minimumLength = Self.lengths(of: node).minimum
        maximumLength = Self.lengths(of: node).maximum
    }

    /// A text of a length in `length` that the pattern matches whole, or nil when none was
    /// found (the pattern's lengths and `length` do not meet, or its assertions never held).
    package func sample(length: ClosedRange<Int>, using random: inout some RandomNumberGenerator) -> String? {
        let lower = max(length.lowerBound, minimumLength)
        let upper = min(length.upperBound, maximumLength ?? Int.max, Self.maximumLength)
        guard lower <= upper else { return nil }
        for attempt in 0..<Self.attempts {
            // The first attempts aim low in the range, later ones anywhere in it.
            let spread = min(upper - lower, attempt < 2 ? 8 : upper - lower)
            let target = lower + (spread > 0 ? Int(random.next() % UInt64(spread + 1)) : 0)
            var slack = target - minimumLength
            var scalars = String.UnicodeScalarView()
            emit(node, slack: &slack, into: &scalars, random: &random)
            let count = scalars.count
            guard count >= length.lowerBound, count <= length.upperBound else { continue }
            let text = String(scalars)
            if regex.wholeMatches(text) { return text }
        }
        return nil
    }

    private func emit(
        _ node: RegexNode, slack: inout Int, into text: inout String.UnicodeScalarView,
        random: inout some RandomNumberGenerator
    ) {
        switch node {
        case .scalar(let value): text.append(Unicode.Scalar(value) ?? "?")
        case .character(let index):
            let choices = members[index]
            text.append(choices.isEmpty ? "?" : choices[Int(random.next() % UInt64(choices.count))])
        case .assertion: break
        case .sequence(let items): for item in items { emit(item, slack: &slack, into: &text, random: &random) }
        case .group(let inner, _), .reluctant(let inner): emit(inner, slack: &slack, into: &text, random: &random)
        case .alternation(let branches):
            let base = Self.lengths(of: node).minimum
            let fitting = branches.filter { Self.lengths(of: $0).minimum - base <= slack }
            let choices = fitting.isEmpty ? branches : fitting
            let chosen = choices[Int(random.next() % UInt64(choices.count))]
            slack -= Self.lengths(of: chosen).minimum - base
            emit(chosen, slack: &slack, into: &text, random: &random)
        case .repetition(let item, let minimum, let maximum, _):
            let each = max(Self.lengths(of: item).minimum, 1)
            let room = (maximum ?? Int.max) - minimum
            let extra = min(max(slack, 0) / each, room, Self.maximumLength)
            slack -= extra * Self.lengths(of: item).minimum
            for _ in 0..<(minimum + extra) {
                guard text.count <= Self.maximumLength else { return }
                emit(item, slack: &slack, into: &text, random: &random)
            }
        }
    }

    /// The characters a class position is filled from: its letters and digits when it has
    /// some, else its printable ASCII characters, else the first member found at the start of
    /// its ranges or in a bounded scan (empty: the class matches nothing, the sample fails).
    private static func members(of characterClass: CharacterClass) -> [Unicode.Scalar] {
        let preferred = Self.preferred.filter { characterClass.contains($0.value) }
        if !preferred.isEmpty { return preferred }
        let printable = (UInt32(0x20)..<0x7F).filter(characterClass.contains).compactMap(Unicode.Scalar.init)
        if !printable.isEmpty { return printable }
        if let first = lowerBounds(characterClass.predicate).first(where: characterClass.contains) {
            return Unicode.Scalar(first).map { [$0] } ?? []
        }
        for value in UInt32(0xA0)..<0x3000 where characterClass.contains(value) {
            return Unicode.Scalar(value).map { [$0] } ?? []
        }
        for value in UInt32(0)..<0x20 where characterClass.contains(value) {
            return Unicode.Scalar(value).map { [$0] } ?? []
        }
        return []
    }

    /// The lower ends of a predicate's ranges, where a member is likely.
    private static func lowerBounds(_ predicate: CharacterPredicate) -> [UInt32] {
        switch predicate {
        case .range(let lower, _): return [lower]
        case .union(let parts), .intersection(let parts): return parts.flatMap(lowerBounds)
        case .caseFolded(let inner, _): return lowerBounds(inner)
        default: return []
        }
    }

    private static let preferred = Array(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".unicodeScalars)

    /// The fewest and most characters a node's matches have (nil: unbounded).
    static func lengths(of node: RegexNode) -> (minimum: Int, maximum: Int?) {
        switch node {
        case .scalar, .character: return (1, 1)
        case .assertion: return (0, 0)
        case .group(let inner, _), .reluctant(let inner): return lengths(of: inner)
        case .sequence(let items):
            var total = (minimum: 0, maximum: Int?.some(0))
            for item in items {
                let part = lengths(of: item)
                total.minimum = saturating(total.minimum, part.minimum)
                total.maximum = total.maximum.flatMap { sum in part.maximum.map { saturating(sum, $0) } }
            }
            return total
        case .alternation(let branches):
            let parts = branches.map(lengths(of:))
            let maxima = parts.map(\.maximum)
            return (
                parts.map(\.minimum).min() ?? 0,
                maxima.contains { $0 == nil } ? nil : maxima.compactMap { $0 }.max() ?? 0
            )
        case .repetition(let item, let minimum, let maximum, _):
            let part = lengths(of: item)
            let most: Int? = maximum.flatMap { count in part.maximum.map { $0.multipliedReportingOverflow(by: count) } }
                .flatMap { $0.overflow ? nil : $0.partialValue }
            return (
                part.minimum.multipliedReportingOverflow(by: minimum).overflow ? Int.max : part.minimum * minimum, most
            )
        }
    }

    private static func saturating(_ lhs: Int, _ rhs: Int) -> Int {
        let sum = lhs.addingReportingOverflow(rhs)
        return sum.overflow ? Int.max : sum.partialValue
    }
}
