/// A deterministic automaton built from a ``RegexProgram`` while it runs over one text: each
/// state is a set of program states, and its transition on each ASCII byte is worked out the
/// first time it is taken, then looked up. Long texts cost one table lookup per ASCII byte
/// instead of one step per live program state; other scalars are stepped without caching.
///
/// Only for programs without assertions (their steps would depend on the characters around
/// a position). At most ``maximumStates`` states are kept; past that the cache starts over,
/// so memory stays bounded and every step still costs at most one pass over the program.
struct RegexDFA {
    static let maximumStates = 2_048

    private let program: RegexProgram
    /// The program states of each automaton state, sorted.
    private var states: [[Int32]] = []
    private var numbers: [[Int32]: Int32] = [:]
    /// `transitions[state * 128 + byte]`: -1 until worked out, -2 when no state is left.
    private var transitions: [Int32] = []
    /// For following non-consuming instructions: the generation at which each was last seen.
    private var marks: [Int]
    private var generation = 0

    init(_ program: RegexProgram) {
        self.program = program
        marks = [Int](repeating: -1, count: program.instructions.count)
    }

    /// Whether the program matches the whole of the UTF-8 text (valid UTF-8, as a `String`'s).
    mutating func wholeMatches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = follow([0])
        if start.isEmpty { return false }
        var state = number(of: start)
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte < 0x80 {
                var next = transitions[Int(state) * 128 + Int(byte)]
                if next == -1 {
                    let source = states[Int(state)]
                    let target = follow(consuming(UInt32(byte), from: source))
                    if states.count >= Self.maximumStates {
                        restart()
                        state = number(of: source)
                    }
                    next = target.isEmpty ? -2 : number(of: target)
                    transitions[Int(state) * 128 + Int(byte)] = next
                }
                if next == -2 { return false }
                state = next
                index += 1
            } else {
                let (scalar, length) = Self.decode(text, at: index)
                let target = follow(consuming(scalar, from: states[Int(state)]))
                if target.isEmpty { return false }
                if states.count >= Self.maximumStates { restart() }
                state = number(of: target)
                index += length
            }
        }
        return states[Int(state)].contains { if case .match = program.instructions[Int($0)] { true } else { false } }
    }

    private mutating func restart() {
        states.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
    }

    private mutating func number(of set: [Int32]) -> Int32 {
        if let known = numbers[set] { return known }
        let number = Int32(states.count)
        states.append(set)
        numbers[set] = number
        transitions.append(contentsOf: repeatElement(-1, count: 128))
        return number
    }

    /// The program states after `scalar`, before following non-consuming instructions.
    private func consuming(_ scalar: UInt32, from set: [Int32]) -> [Int32] {
        set.compactMap { counter in
            switch program.instructions[Int(counter)] {
            case .scalar(let value): value == scalar ? counter + 1 : nil
            case .character(let index): program.classes[Int(index)].contains(scalar) ? counter + 1 : nil
            default: nil
            }
        }
    }

    /// Every consuming (or matching) state reachable from `starts` through splits and jumps,
    /// sorted.
    private mutating func follow(_ starts: [Int32]) -> [Int32] {
        generation += 1
        var result: [Int32] = []
        var stack = starts.reversed() as [Int32]
        while let counter = stack.popLast() {
            if marks[Int(counter)] == generation { continue }
            marks[Int(counter)] = generation
            switch program.instructions[Int(counter)] {
            case .jump(let target): stack.append(target)
            case .save: stack.append(counter + 1)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertion, .nextNotIn: preconditionFailure("RegexDFA runs programs without assertions only")
            case .scalar, .character, .match: result.append(counter)
            }
        }
        return result.sorted()
    }

    /// The scalar whose UTF-8 starts at `index` (a lead byte), and its length in bytes.
    private static func decode(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(text[index])
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = lead & (0x7F >> UInt32(length))
        for offset in 1..<length where index + offset < text.count {
            value = value << 6 | UInt32(text[index + offset] & 0x3F)
        }
        return (value, length)
    }
}
