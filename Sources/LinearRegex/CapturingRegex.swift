/// A regular expression in Java's syntax that finds matches inside a text with their groups,
/// as Java's `Matcher.find()` and `group(n)` report them: the leftmost match, and among those
/// starting there the one Java's backtracking would find first (alternatives in order, greedy
/// repetitions taking as much as they can, reluctant ones as little), in time linear in the
/// text: a Pike VM, the NFA simulation of ``LinearTimeRegex`` with a set of capture slots per
/// thread, threads kept in the order a backtracking engine would try them.
///
/// ```swift
/// let regex = try CapturingRegex("([a-z]+)-([0-9]+)")
/// regex.firstMatch(in: "id: abc-123")?.groups   // ["abc-123", "abc", "123"]
/// ```
///
/// Where Java and this engine differ: a repetition's iteration that matches nothing does not
/// set the groups inside it (`(a*)*` against `b`: group 1 is unset here, empty in Java).
package final class CapturingRegex: Sendable {
    /// Patterns with more capturing groups are refused (each thread copies its slots).
    package static let maximumGroups = 100
    /// Programs larger than this are refused: the matching limit, plus room for the slots.
    static let maximumSize = 3 * RegexProgram.maximumSize
    /// The most work one step over the text may cost, as program states × capture slots (each
    /// live state copies its slots): what keeps a search linear with a small constant.
    package static let maximumStepCost = 200_000
    /// How many times over ``matches(in:maximumCount:)`` may step through the text (plus a
    /// constant) before it stops with an error: each search is linear, but searches that run
    /// on past the next match's start could otherwise add up to quadratic time.
    package static let scanFactor = 8

    /// The expression as written.
    package let pattern: String
    /// How many capturing groups it has (named ones included).
    package let groupCount: Int
    let program: RegexProgram

    /// Compiles `pattern`, or throws what is wrong with it (or refused in it).
    package init(_ pattern: String) throws(RegexError) {
        var parser = RegexParser(pattern)
        let node = try parser.parse()
        if let offset = parser.possessiveGroupOffset {
            throw RegexError(
                pattern: pattern,
                reason:
                    "a possessive quantifier on a capturing group (at offset \(offset)) is matched as its one "
                    + "character, so the group cannot be reported: write '(?:x)++' or '(x++)'")
        }
        guard parser.groupCount <= Self.maximumGroups else {
            throw RegexError(
                pattern: pattern,
                reason: "the pattern has \(parser.groupCount) capturing groups, more than \(Self.maximumGroups)")
        }
        program = try RegexProgram(
            capturing: node, classes: parser.classes, pattern: pattern, limit: Self.maximumSize)
        let slots = 2 * (parser.groupCount + 1)
        guard program.instructions.count * slots <= Self.maximumStepCost else {
            throw RegexError(
                pattern: pattern,
                reason:
                    "the pattern is too large to search with its groups: \(program.instructions.count) states × "
                    + "\(slots) capture slots is more than \(Self.maximumStepCost) (fewer groups or repetitions?)")
        }
        self.pattern = pattern
        groupCount = parser.groupCount
    }

    /// The first match in `text`, or nil when there is none.
    package func firstMatch(in text: String) -> RegexMatch? {
        let scalars = Array(text.unicodeScalars)
        var scanner = CaptureScanner(program: program, text: scalars, slotCount: 2 * (groupCount + 1))
        return scanner.find(from: 0).map { RegexMatch(slots: $0, in: scalars) }
    }

    /// Every match in `text`, left to right, as Java's `find()` loop finds them (after an empty
    /// match the next search starts one character on), at most `maximumCount`. Throws when the
    /// searches would step through the text more than ``scanFactor`` times over.
    package func matches(in text: String, maximumCount: Int) throws(RegexError) -> [RegexMatch] {
        let scalars = Array(text.unicodeScalars)
        var scanner = CaptureScanner(program: program, text: scalars, slotCount: 2 * (groupCount + 1))
        scanner.stepsLeft = Self.scanFactor * (scalars.count + 1) + 1024
        var found: [RegexMatch] = []
        var start = 0
        while start <= scalars.count, found.count < maximumCount {
            guard let slots = scanner.find(from: start) else { break }
            found.append(RegexMatch(slots: slots, in: scalars))
            start = slots[1] == slots[0] ? slots[1] + 1 : slots[1]
        }
        if scanner.stepsLeft < 0 {
            throw RegexError(
                pattern: pattern,
                reason:
                    "finding every match would step through the text more than \(Self.scanFactor) times over "
                    + "(a match attempt runs on past the next match): use a pattern whose matches end sooner")
        }
        return found
    }
}

/// One match: the whole of it and each group.
package struct RegexMatch: Sendable, Hashable {
    /// Group 0 (the whole match), then each capturing group in order; nil for a group that
    /// took no part in the match.
    package let groups: [Substring?]

    init(slots: [Int], in text: [Unicode.Scalar]) {
        var groups: [Substring?] = []
        groups.reserveCapacity(slots.count / 2)
        for group in 0..<slots.count / 2 {
            let start = slots[2 * group]
            let end = slots[2 * group + 1]
            guard start >= 0, end >= start else {
                groups.append(nil)
                continue
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: text[start..<end])
            groups.append(Substring(String(view)))
        }
        self.groups = groups
    }

    /// The whole match.
    package var text: Substring { groups[0] ?? "" }
}

/// The Pike VM: threads in priority order, each with its capture slots (flat, `slotCount` per
/// thread); one step per scalar, each instruction joining a step's list at most once, so a
/// search costs at most (program size × slot count) per scalar.
struct CaptureScanner {
    private enum Frame {
        case visit(Int32)
        case restore(slot: Int, value: Int)
    }

    private struct Threads {
        var counters: [Int32] = []
        var slots: [Int] = []

        mutating func removeAll() {
            counters.removeAll(keepingCapacity: true)
            slots.removeAll(keepingCapacity: true)
        }
    }

    let program: RegexProgram
    let text: [Unicode.Scalar]
    let slotCount: Int
    /// Steps left before the scan gives up (negative once it has).
    var stepsLeft = Int.max
    private let terminator: Int?
    private var marks: [Int]
    private var stamp = 0
    private var scratch: [Int]
    private var stack: [Frame] = []
    private var current = Threads()
    private var next = Threads()

    init(program: RegexProgram, text: [Unicode.Scalar], slotCount: Int) {
        self.program = program
        self.text = text
        self.slotCount = slotCount
        marks = [Int](repeating: -1, count: program.instructions.count)
        scratch = [Int](repeating: -1, count: slotCount)
        if let last = text.last, RegexProgram.Machine.Position.isTerminator(Int64(last.value)) {
            terminator =
                last == "\n" && text.count >= 2 && text[text.count - 2] == "\r" ? text.count - 2 : text.count - 1
        } else {
            terminator = nil
        }
    }

    private func position(_ offset: Int) -> RegexProgram.Machine.Position {
        RegexProgram.Machine.Position(
            previous: offset == 0 ? -1 : Int64(text[offset - 1].value),
            following: offset == text.count ? -1 : Int64(text[offset].value), atStart: offset == 0,
            atFinalTerminator: terminator == offset)
    }

    /// The slots of the first match starting at or after `start`, or nil (also when the
    /// step budget runs out: ``stepsLeft`` is then negative).
    mutating func find(from start: Int) -> [Int]? {
        current.removeAll()
        var matched: [Int]?
        var offset = start
        stamp += 1
        while true {
            if matched == nil {
                for slot in 0..<slotCount { scratch[slot] = -1 }
                scratch[0] = offset
                add(0, intoNext: false, at: offset)
            }
            stepsLeft -= 1
            if stepsLeft < 0 { return nil }
            next.removeAll()
            stamp += 1
            threads: for thread in 0..<current.counters.count {
                let counter = current.counters[thread]
                let base = thread * slotCount
                let taken: Bool
                switch program.instructions[Int(counter)] {
                case .match:
                    // Threads after this one are what a backtracking engine would try later.
                    var slots = Array(current.slots[base..<base + slotCount])
                    slots[1] = offset
                    matched = slots
                    break threads
                case .scalar(let value): taken = offset < text.count && text[offset].value == value
                case .character(let index):
                    taken = offset < text.count && program.classes[Int(index)].contains(text[offset].value)
                default: taken = false
                }
                if taken {
                    for slot in 0..<slotCount { scratch[slot] = current.slots[base + slot] }
                    add(counter + 1, intoNext: true, at: offset + 1)
                }
            }
            if offset == text.count { break }
            swap(&current, &next)
            offset += 1
            if current.counters.isEmpty && matched != nil { break }
        }
        return matched
    }

    /// Adds the thread at `start` (its slots in `scratch`) and every state reachable from it
    /// without consuming, in priority order, to the next step's list or the current one;
    /// saves record `offset`.
    private mutating func add(_ start: Int32, intoNext: Bool, at offset: Int) {
        let here = position(offset)
        stack.append(.visit(start))
        while let frame = stack.popLast() {
            switch frame {
            case .restore(let slot, let value): scratch[slot] = value
            case .visit(let counter):
                if marks[Int(counter)] == stamp { continue }
                marks[Int(counter)] = stamp
                switch program.instructions[Int(counter)] {
                case .jump(let target): stack.append(.visit(target))
                case .split(let first, let second):
                    stack.append(.visit(second))
                    stack.append(.visit(first))
                case .save(let slot):
                    stack.append(.restore(slot: Int(slot), value: scratch[Int(slot)]))
                    scratch[Int(slot)] = offset
                    stack.append(.visit(counter + 1))
                case .assertion(let assertion): if here.holds(assertion) { stack.append(.visit(counter + 1)) }
                case .nextNotIn(let index):
                    if here.atEnd || !program.classes[Int(index)].contains(UInt32(here.following)) {
                        stack.append(.visit(counter + 1))
                    }
                case .scalar, .character, .match:
                    if intoNext {
                        next.counters.append(counter)
                        next.slots.append(contentsOf: scratch)
                    } else {
                        current.counters.append(counter)
                        current.slots.append(contentsOf: scratch)
                    }
                }
            }
        }
    }
}
