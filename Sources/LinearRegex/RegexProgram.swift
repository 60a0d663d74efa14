/// A ``RegexNode`` compiled to a Thompson NFA and run as a set of states over the text's
/// Unicode scalars: each scalar is looked at once per live state, so a match costs at most
/// (program size × text length) steps whatever the pattern (no backtracking).
struct RegexProgram: Sendable {
    /// Programs larger than this are refused, so that `{n,m}` expansion stays bounded too.
    static let maximumSize = 10_000

    enum Instruction: Sendable {
        /// Consume exactly this scalar.
        case scalar(UInt32)
        /// Consume one scalar of the class at this index.
        case character(Int32)
        /// Continue at both.
        case split(Int32, Int32)
        case jump(Int32)
        case assertion(RegexAssertion)
        /// Continue only when the next scalar is not in the class (or the text ends): how a
        /// possessive repetition of one character gives up only what it could not take.
        case nextNotIn(Int32)
        /// Record the position in this capture slot, and continue (only in a program built
        /// for ``CapturingRegex``; matching programs have none).
        case save(Int32)
        case match
    }

    let instructions: [Instruction]
    let classes: [CharacterClass]
    /// Whether no step depends on the characters around a position, so ``RegexDFA`` can run
    /// the program.
    let isAssertionFree: Bool

    /// Compiles a parsed pattern; throws when the program would pass ``maximumSize``. A program
    /// for whole matches drops the anchors a whole match makes true anyway; one for searching
    /// (`trimmingAnchors: false`) keeps them.
    init(
        _ node: RegexNode, classes: [CharacterClass], pattern: String, trimmingAnchors: Bool = true
    ) throws(RegexError) {
        var builder = Builder(pattern: pattern, captures: false, limit: Self.maximumSize)
        try builder.emit(trimmingAnchors ? Self.trimmingAnchors(node) : node)
        try builder.append(.match)
        instructions = builder.instructions
        self.classes = classes
        isAssertionFree = !instructions.contains {
            switch $0 {
            case .assertion, .nextNotIn: true
            default: false
            }
        }
    }

    /// The node without the anchors a whole match makes true anyway: `^` or `\A` before
    /// anything is consumed, `$`, `\Z` or `\z` after everything is.
    static func trimmingAnchors(_ node: RegexNode) -> RegexNode {
        switch node {
        case .alternation(let branches): return .alternation(branches.map(trimmingAnchors))
        case .group(let inner, let index): return .group(trimmingAnchors(inner), index: index)
        case .sequence(var items):
            while case .assertion(let assertion)? = items.first, assertion.holdsAtStart { items.removeFirst() }
            while case .assertion(let assertion)? = items.last, assertion.holdsAtEnd { items.removeLast() }
            return .sequence(items)
        case .assertion(let assertion) where assertion.holdsAtStart || assertion.holdsAtEnd: return .sequence([])
        default: return node
        }
    }

    /// Compiles a parsed pattern for finding matches with their groups: every capturing group
    /// saves its ends in slots `2 × index` and `2 × index + 1`, splits list the branch Java
    /// tries first first (reluctant repetitions prefer to stop), and no anchor is dropped.
    init(capturing node: RegexNode, classes: [CharacterClass], pattern: String, limit: Int) throws(RegexError) {
        var builder = Builder(pattern: pattern, captures: true, limit: limit)
        try builder.emit(node)
        try builder.append(.match)
        instructions = builder.instructions
        self.classes = classes
        isAssertionFree = false
    }

    struct Builder {
        let pattern: String
        /// Whether groups save their ends and reluctant repetitions prefer to stop.
        let captures: Bool
        let limit: Int
        var instructions: [Instruction] = []

        var next: Int32 { Int32(instructions.count) }

        @discardableResult
        mutating func append(_ instruction: Instruction) throws(RegexError) -> Int {
            guard instructions.count < limit else {
                throw RegexError(
                    pattern: pattern,
                    reason: "the pattern compiles to more than \(limit) states (large repetition counts?)")
            }
            instructions.append(instruction)
            return instructions.count - 1
        }

        mutating func emit(_ node: RegexNode) throws(RegexError) {
            switch node {
            case .scalar(let value): try append(.scalar(value))
            case .character(let index): try append(.character(Int32(index)))
            case .assertion(let assertion): try append(.assertion(assertion))
            case .sequence(let items):
                for item in items { try emit(item) }
            case .alternation(let branches):
                var exits: [Int] = []
                for branch in branches.dropLast() {
                    let split = try append(.split(0, 0))
                    try emit(branch)
                    exits.append(try append(.jump(0)))
                    instructions[split] = .split(Int32(split + 1), next)
                }
                if let last = branches.last { try emit(last) }
                for exit in exits { instructions[exit] = .jump(next) }
            case .group(let inner, let index):
                guard captures else { return try emit(inner) }
                try append(.save(Int32(2 * index)))
                try emit(inner)
                try append(.save(Int32(2 * index + 1)))
            case .reluctant(let repetition):
                guard captures, case .repetition(let item, let minimum, let maximum, let possessive) = repetition else {
                    return try emit(repetition)
                }
                try emitRepetition(item, minimum, maximum, possessive, reluctant: true)
            case .repetition(let item, let minimum, let maximum, let possessive):
                try emitRepetition(item, minimum, maximum, possessive, reluctant: false)
            }
        }

        /// A repetition's copies and loop; `reluctant`, each split prefers to stop (only a
        /// ``CapturingRegex`` sees the order).
        private mutating func emitRepetition(
            _ item: RegexNode, _ minimum: Int, _ maximum: Int?, _ possessive: Bool, reluctant: Bool
        ) throws(RegexError) {
            for _ in 0..<minimum { try emit(item) }
            // A possessive repetition stops early only when the next character is not one
            // it could take.
            var stop: Instruction?
            if possessive, case .character(let index) = item { stop = .nextNotIn(Int32(index)) }
            if let maximum {
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(try append(.split(0, 0)))
                    try emit(item)
                }
                var end = next
                if let stop, !splits.isEmpty {
                    try append(.jump(next + 2))
                    end = next
                    try append(stop)
                }
                for split in splits {
                    instructions[split] = reluctant ? .split(end, Int32(split + 1)) : .split(Int32(split + 1), end)
                }
            } else {
                let loop = try append(.split(0, 0))
                try emit(item)
                try append(.jump(Int32(loop)))
                instructions[loop] = reluctant ? .split(next, Int32(loop + 1)) : .split(Int32(loop + 1), next)
                if let stop { try append(stop) }
            }
        }
    }

    /// Whether the program matches the whole of `text`, stepping every live state per scalar.
    func wholeMatches<Scalars: BidirectionalCollection>(_ text: Scalars) -> Bool
    where Scalars.Element == Unicode.Scalar {
        let size = instructions.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: size * 3) { lists in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: size) { marks in
                marks.initialize(repeating: -1)
                // Never nil: a program holds at least its `match`.
                guard let lists = lists.baseAddress, let marks = marks.baseAddress else { return false }
                let machine = Machine(program: self, stack: lists + 2 * size, marks: marks)
                return machine.run(text, current: lists, next: lists + size)
            }
        }
    }

    /// One match's working memory, provided by the caller: the stack for following
    /// non-consuming states, and for each instruction the step at which it last joined a list.
    struct Machine {
        let program: RegexProgram
        let stack: UnsafeMutablePointer<Int32>
        let marks: UnsafeMutablePointer<Int>

        /// Where the states are: the scalars either side (-1 for none) and the input's ends.
        struct Position {
            var previous: Int64
            var following: Int64
            var atStart: Bool
            var atFinalTerminator: Bool

            var atEnd: Bool { following < 0 }

            func holds(_ assertion: RegexAssertion) -> Bool {
                switch assertion {
                case .inputStart: return atStart
                case .inputEnd: return atEnd
                case .inputEndOrFinalTerminator: return atEnd || atFinalTerminator
                case .lineStart:
                    return atStart
                        || (Self.isTerminator(previous) && !atEnd && !(previous == 0x0D && following == 0x0A))
                case .lineEnd:
                    return atEnd || (Self.isTerminator(following) && !(previous == 0x0D && following == 0x0A))
                case .wordBoundary: return Self.isWord(previous) != Self.isWord(following)
                case .notWordBoundary: return Self.isWord(previous) == Self.isWord(following)
                }
            }

            static func isTerminator(_ value: Int64) -> Bool {
                value == 0x0A || value == 0x0D || value == 0x85 || value == 0x2028 || value == 0x2029
            }

            static func isWord(_ value: Int64) -> Bool {
                (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
                    || value == 0x5F
            }
        }

        /// Runs the program over the text, with the state lists in `current` and `next`.
        func run<Scalars: BidirectionalCollection>(
            _ text: Scalars, current: UnsafeMutablePointer<Int32>, next: UnsafeMutablePointer<Int32>
        ) -> Bool where Scalars.Element == Unicode.Scalar {
            var current = current
            var next = next
            var currentCount = 0
            var nextCount = 0
            let finalTerminator = Self.finalTerminator(text)
            var index = text.startIndex
            var position = Position(
                previous: -1, following: index == text.endIndex ? -1 : Int64(text[index].value), atStart: true,
                atFinalTerminator: finalTerminator == index)
            var step = 0
            add(0, into: current, count: &currentCount, at: position, step: step)
            while position.following >= 0 {
                let scalar = UInt32(position.following)
                index = text.index(after: index)
                step += 1
                position = Position(
                    previous: position.following,
                    following: index == text.endIndex ? -1 : Int64(text[index].value), atStart: false,
                    atFinalTerminator: finalTerminator == index)
                nextCount = 0
                for slot in 0..<currentCount {
                    let counter = Int(current[slot])
                    let taken: Bool
                    switch program.instructions[counter] {
                    case .scalar(let value): taken = value == scalar
                    case .character(let index): taken = program.classes[Int(index)].contains(scalar)
                    default: taken = false
                    }
                    if taken { add(Int32(counter + 1), into: next, count: &nextCount, at: position, step: step) }
                }
                if nextCount == 0 { return false }
                swap(&current, &next)
                currentCount = nextCount
            }
            for slot in 0..<currentCount {
                if case .match = program.instructions[Int(current[slot])] { return true }
            }
            return false
        }

        /// Adds a state and every state reachable from it without consuming a scalar.
        private func add(
            _ start: Int32, into list: UnsafeMutablePointer<Int32>, count: inout Int, at position: Position, step: Int
        ) {
            var depth = 0
            @inline(__always) func push(_ counter: Int32) {
                if marks[Int(counter)] == step { return }
                marks[Int(counter)] = step
                stack[depth] = counter
                depth += 1
            }
            push(start)
            while depth > 0 {
                depth -= 1
                let counter = stack[depth]
                switch program.instructions[Int(counter)] {
                case .jump(let target): push(target)
                case .save: push(counter + 1)
                case .split(let first, let second):
                    push(second)
                    push(first)
                case .assertion(let assertion): if position.holds(assertion) { push(counter + 1) }
                case .nextNotIn(let index):
                    if position.atEnd || !program.classes[Int(index)].contains(UInt32(position.following)) {
                        push(counter + 1)
                    }
                case .scalar, .character, .match:
                    list[count] = counter
                    count += 1
                }
            }
        }

        /// Where a line terminator that ends the input starts (`\r\n` counts as one), if any.
        private static func finalTerminator<Scalars: BidirectionalCollection>(_ text: Scalars) -> Scalars.Index?
        where Scalars.Element == Unicode.Scalar {
            guard text.startIndex != text.endIndex else { return nil }
            let last = text.index(before: text.endIndex)
            let value = Int64(text[last].value)
            guard Position.isTerminator(value) else { return nil }
            if value == 0x0A && last != text.startIndex {
                let before = text.index(before: last)
                if text[before] == "\r" { return before }
            }
            return last
        }
    }
}

extension RegexProgram {
    /// The leftmost match in `text` and, among those starting there, the longest (as scalar
    /// offsets), in time linear in the text: one pass, a thread per state remembering where
    /// its match began.
    func firstMatch(_ text: [Unicode.Scalar]) -> Range<Int>? {
        var marks = [Int](repeating: -1, count: instructions.count)
        var current: [(counter: Int32, start: Int)] = []
        var next: [(counter: Int32, start: Int)] = []
        var stack: [Int32] = []
        var best: Range<Int>?
        let terminator = Self.finalTerminatorOffset(text)
        func position(_ offset: Int) -> Machine.Position {
            Machine.Position(
                previous: offset == 0 ? -1 : Int64(text[offset - 1].value),
                following: offset == text.count ? -1 : Int64(text[offset].value), atStart: offset == 0,
                atFinalTerminator: terminator == offset)
        }
        func add(
            _ counter: Int32, start: Int, into list: inout [(counter: Int32, start: Int)],
            at position: Machine.Position,
            step: Int
        ) {
            stack.removeAll(keepingCapacity: true)
            func push(_ counter: Int32) {
                if marks[Int(counter)] == step { return }
                marks[Int(counter)] = step
                stack.append(counter)
            }
            push(counter)
            while let counter = stack.popLast() {
                switch instructions[Int(counter)] {
                case .jump(let target): push(target)
                case .save: push(counter + 1)
                case .split(let first, let second):
                    push(second)
                    push(first)
                case .assertion(let assertion): if position.holds(assertion) { push(counter + 1) }
                case .nextNotIn(let index):
                    if position.atEnd || !classes[Int(index)].contains(UInt32(position.following)) { push(counter + 1) }
                case .scalar, .character, .match:
                    list.append((counter, start))
                }
            }
        }
        for offset in 0...text.count {
            let here = position(offset)
            if best == nil { add(0, start: offset, into: &current, at: here, step: offset) }
            for thread in current {
                guard case .match = instructions[Int(thread.counter)] else { continue }
                if let found = best, thread.start > found.lowerBound || offset <= found.upperBound { continue }
                best = thread.start..<offset
            }
            if offset == text.count { break }
            let scalar = text[offset].value
            next.removeAll(keepingCapacity: true)
            let following = position(offset + 1)
            for thread in current where thread.start <= (best?.lowerBound ?? Int.max) {
                let taken: Bool
                switch instructions[Int(thread.counter)] {
                case .scalar(let value): taken = value == scalar
                case .character(let index): taken = classes[Int(index)].contains(scalar)
                default: taken = false
                }
                if taken { add(thread.counter + 1, start: thread.start, into: &next, at: following, step: offset + 1) }
            }
            swap(&current, &next)
            if current.isEmpty && best != nil { break }
        }
        return best
    }

    private static func finalTerminatorOffset(_ text: [Unicode.Scalar]) -> Int? {
        guard let last = text.last, Machine.Position.isTerminator(Int64(last.value)) else { return nil }
        if last == "\n", text.count >= 2, text[text.count - 2] == "\r" { return text.count - 2 }
        return text.count - 1
    }
}
