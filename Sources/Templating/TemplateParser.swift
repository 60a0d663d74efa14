/// Reads Handlebars source into a tree: text, `{{expr}}`, `{{{expr}}}`, comments, blocks with
/// `{{else}}` (and `{{else if ...}}` chains), `~` whitespace control, subexpressions, literals
/// and hash arguments. Every helper is looked up here, so an unknown one is an error at its
/// position, before any request.
struct TemplateParser {
    private let bytes: [UInt8]
    private var offset = 0
    private let limits: TemplateLimits

    /// An open block while its body and inverse are read.
    private struct Frame {
        var call: TemplateCall
        var blockParameters: [String]
        var body: [TemplateSegment] = []
        var inverse: [TemplateSegment] = []
        var inElse = false
        /// Opened by `{{else name}}`: closed by its parent's closing tag.
        var chained = false
    }

    init(_ source: String, limits: TemplateLimits) {
        bytes = Array(source.utf8)
        self.limits = limits
    }

    /// Where the last position was asked: positions are asked in increasing order while
    /// parsing, so each is found by counting from the one before (linear in the template).
    private var cursor = (offset: 0, line: 1, column: 1)

    /// The position of a byte offset.
    mutating func position(_ at: Int) -> TemplatePosition {
        let target = min(at, bytes.count)
        if target < cursor.offset { cursor = (0, 1, 1) }
        var (offset, line, column) = cursor
        while offset < target {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        cursor = (offset, line, column)
        return TemplatePosition(line: line, column: column)
    }

    /// The position of a byte offset, counted from the start (for errors, once).
    func positionFromStart(_ at: Int) -> TemplatePosition {
        var copy = self
        copy.cursor = (0, 1, 1)
        return copy.position(at)
    }

    private func fail(_ message: String, at: Int? = nil) -> TemplateError {
        TemplateError(message, at: positionFromStart(at ?? offset))
    }

    mutating func parse() throws(TemplateError) -> [TemplateSegment] {
        guard bytes.count <= limits.maximumSourceLength else {
            throw TemplateError(
                "the template is \(bytes.count) bytes, more than the limit of \(limits.maximumSourceLength)", at: nil)
        }
        var root: [TemplateSegment] = []
        var frames: [Frame] = []
        var text: [UInt8] = []
        var stripNext = false

        func append(_ segment: TemplateSegment, to frames: inout [Frame], root: inout [TemplateSegment]) {
            if frames.isEmpty {
                root.append(segment)
            } else if frames[frames.count - 1].inElse {
                frames[frames.count - 1].inverse.append(segment)
            } else {
                frames[frames.count - 1].body.append(segment)
            }
        }
        func flush(_ text: inout [UInt8], strip: Bool, frames: inout [Frame], root: inout [TemplateSegment]) {
            if strip { while let last = text.last, Self.isSpace(last) { text.removeLast() } }
            if !text.isEmpty { append(.text(String(decoding: text, as: UTF8.self)), to: &frames, root: &root) }
            text.removeAll(keepingCapacity: true)
        }

        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\\"), starts(with: "\\{{") {
                text.append(contentsOf: "{{".utf8)
                offset += 3
                continue
            }
            guard byte == UInt8(ascii: "{"), starts(with: "{{") else {
                if stripNext && Self.isSpace(byte) {
                    offset += 1
                    continue
                }
                stripNext = false
                text.append(byte)
                offset += 1
                continue
            }
            let open = offset
            offset += 2
            let triple = peek() == UInt8(ascii: "{")
            if triple { offset += 1 }
            let stripBefore = peek() == UInt8(ascii: "~")
            if stripBefore { offset += 1 }
            flush(&text, strip: stripBefore, frames: &frames, root: &root)
            stripNext = false
            if !triple, peek() == UInt8(ascii: "!") {
                let long = starts(with: "!--")
                let closing = long ? "--}}" : "}}"
                guard let end = find(closing, from: offset) else { throw fail("a comment is not closed", at: open) }
                if end > offset, bytes[end - 1] == UInt8(ascii: "~") { stripNext = true }
                offset = end + closing.utf8.count
                continue
            }
            var kind: UInt8 = 0
            if !triple, let next = peek(),
                [
                    UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: "^"), UInt8(ascii: "&"),
                    UInt8(ascii: ">"),
                ].contains(next)
            {
                kind = next
                offset += 1
            }
            if kind == UInt8(ascii: ">") { throw fail("partials ('{{>') are not supported", at: open) }
            skipSpaces()
            if kind == UInt8(ascii: "/") {
                let nameStart = offset
                let name = try identifier()
                guard !name.isEmpty else { throw fail("expected a block name after '{{/'") }
                stripNext = try close(triple: false)
                while let top = frames.last, top.chained {
                    frames.removeLast()
                    append(.block(Self.block(top)), to: &frames, root: &root)
                }
                guard let top = frames.popLast() else {
                    throw fail("'{{/\(name)}}' closes no open block", at: nameStart)
                }
                guard top.call.name == name else {
                    throw fail(
                        "'{{/\(name)}}' closes the block '\(top.call.name)' opened at \(top.call.position)",
                        at: nameStart)
                }
                append(.block(Self.block(top)), to: &frames, root: &root)
                continue
            }
            // `{{else}}`, `{{^}}` and `{{else name ...}}`.
            let isElseWord = kind == 0 && !triple && startsWord("else")
            if isElseWord || (kind == UInt8(ascii: "^") && (peek() == UInt8(ascii: "}") || peek() == UInt8(ascii: "~")))
            {
                if isElseWord { offset += 4 }
                skipSpaces()
                guard !frames.isEmpty, !frames[frames.count - 1].inElse else {
                    throw fail(
                        frames.isEmpty ? "'{{else}}' outside a block" : "a second '{{else}}' in one block", at: open)
                }
                frames[frames.count - 1].inElse = true
                if isElseWord, let next = peek(), next != UInt8(ascii: "}"), next != UInt8(ascii: "~") {
                    guard frames.count < limits.maximumDepth else { throw fail("blocks nest too deep", at: open) }
                    let (call, parameters) = try blockCall(depth: frames.count)
                    stripNext = try close(triple: false)
                    frames.append(Frame(call: call, blockParameters: parameters, chained: true))
                } else {
                    stripNext = try close(triple: false)
                }
                continue
            }
            if kind == UInt8(ascii: "#") || kind == UInt8(ascii: "^") {
                guard frames.count < limits.maximumDepth else { throw fail("blocks nest too deep", at: open) }
                if kind == UInt8(ascii: "^") {
                    throw fail("inverted sections ('{{^name}}') are not supported; use '{{#unless name}}'", at: open)
                }
                let (call, parameters) = try blockCall(depth: frames.count)
                stripNext = try close(triple: false)
                frames.append(Frame(call: call, blockParameters: parameters))
                continue
            }
            let expression = try mustache(depth: frames.count)
            stripNext = try close(triple: triple)
            append(
                .output(expression), to: &frames, root: &root)
        }
        flush(&text, strip: false, frames: &frames, root: &root)
        if let open = frames.last {
            throw TemplateError(
                "the block '\(open.call.name)' is not closed ('{{/\(open.call.name)}}')", at: open.call.position)
        }
        return root
    }

    private static func block(_ frame: Frame) -> TemplateBlock {
        TemplateBlock(
            call: frame.call, blockParameters: frame.blockParameters, body: frame.body, inverse: frame.inverse)
    }

    // MARK: Mustache contents

    /// A block's opening: a helper call and `as |a b|` block parameters.
    private mutating func blockCall(depth: Int) throws(TemplateError) -> (TemplateCall, [String]) {
        let start = offset
        let head = try headExpression(depth: depth)
        let (parameters, hash) = try arguments(depth: depth)
        var blockParameters: [String] = []
        if startsWord("as") {
            offset += 2
            skipSpaces()
            guard peek() == UInt8(ascii: "|") else { throw fail("expected '|' after 'as'") }
            offset += 1
            skipSpaces()
            while let next = peek(), next != UInt8(ascii: "|") {
                let name = try identifier()
                guard !name.isEmpty else { throw fail("expected a block parameter name") }
                blockParameters.append(name)
                skipSpaces()
            }
            guard peek() == UInt8(ascii: "|") else { throw fail("expected '|' to end the block parameters") }
            offset += 1
            skipSpaces()
        }
        guard case .path(let path, _) = head, path.segments.count == 1, !path.isData, !path.isThis,
            path.parents == 0
        else {
            throw fail("expected a helper name to open a block", at: start)
        }
        let name = path.segments[0]
        guard let helper = TemplateHelpers.find(name) else {
            throw fail("unknown helper '\(name)'", at: start)
        }
        let call = TemplateCall(
            name: name, helper: helper, parameters: parameters, hash: hash, position: position(start))
        try checkArguments(call, at: start)
        return (call, blockParameters)
    }

    /// What `{{ ... }}` holds: a path, a literal, or a helper call.
    private mutating func mustache(depth: Int) throws(TemplateError) -> TemplateExpression {
        let start = offset
        let head = try headExpression(depth: depth)
        let (parameters, hash) = try arguments(depth: depth)
        return try call(head, parameters, hash, start: start)
    }

    private mutating func call(
        _ head: TemplateExpression, _ parameters: [TemplateExpression],
        _ hash: [(key: String, value: TemplateExpression)], start: Int
    ) throws(TemplateError) -> TemplateExpression {
        if case .path(let path, _) = head, path.segments.count == 1, !path.isData, !path.isThis, path.parents == 0 {
            let name = path.segments[0]
            if let helper = TemplateHelpers.find(name),
                !(helper.yieldsToPathWithoutArguments && parameters.isEmpty && hash.isEmpty)
            {
                try Self.checkInline(helper, name, at: start, self)
                let call = TemplateCall(
                    name: name, helper: helper, parameters: parameters, hash: hash, position: position(start))
                try checkArguments(call, at: start)
                return .call(call)
            }
            if !parameters.isEmpty || !hash.isEmpty { throw fail("unknown helper '\(name)'", at: start) }
        } else if !parameters.isEmpty || !hash.isEmpty {
            throw fail("expected a helper name before the arguments", at: start)
        }
        return head
    }

    /// A helper's literal arguments checked now (a pattern, a truncation, a format), so that a
    /// bad one is a load error at its place rather than an error in every response.
    private func checkArguments(_ call: TemplateCall, at start: Int) throws(TemplateError) {
        if let problem = TemplateHelpers.loadProblem(call) { throw fail("'\(call.name)' \(problem)", at: start) }
    }

    /// `each` and `with` only work as blocks: used inline, they are refused here, not at render.
    private static func checkInline(
        _ helper: TemplateHelper, _ name: String, at offset: Int, _ parser: TemplateParser
    ) throws(TemplateError) {
        switch helper.kind {
        case .eachBlock, .withBlock:
            throw parser.fail("'\(name)' is a block helper: use '{{#\(name) ...}}...{{/\(name)}}'", at: offset)
        default: return
        }
    }

    /// Parameters and `key=value` hash arguments up to `}}`, `)` or `as |`.
    private mutating func arguments(
        depth: Int
    ) throws(TemplateError) -> (
        [TemplateExpression], [(key: String, value: TemplateExpression)]
    ) {
        var parameters: [TemplateExpression] = []
        var hash: [(key: String, value: TemplateExpression)] = []
        while true {
            skipSpaces()
            guard let next = peek() else { throw fail("a mustache is not closed ('}}')") }
            if next == UInt8(ascii: "}") || next == UInt8(ascii: ")") || next == UInt8(ascii: "~") { break }
            if startsWord("as"), peekAfterWord("as") == UInt8(ascii: "|") { break }
            if let key = hashKey() {
                skipSpaces()
                hash.append((key, try argument(depth: depth)))
                continue
            }
            guard hash.isEmpty else { throw fail("expected 'key=value' after hash arguments") }
            parameters.append(try argument(depth: depth))
        }
        return (parameters, hash)
    }

    /// One argument: a literal, a path or a subexpression.
    private mutating func argument(depth: Int) throws(TemplateError) -> TemplateExpression {
        try headExpression(depth: depth)
    }

    /// A literal, a path, or `( helper args )`.
    private mutating func headExpression(depth: Int) throws(TemplateError) -> TemplateExpression {
        skipSpaces()
        guard let next = peek() else { throw fail("a mustache is not closed ('}}')") }
        let start = offset
        switch next {
        case UInt8(ascii: "("):
            guard depth + 1 < limits.maximumDepth else { throw fail("subexpressions nest too deep") }
            offset += 1
            skipSpaces()
            let head = try headExpression(depth: depth + 1)
            let (parameters, hash) = try arguments(depth: depth + 1)
            guard peek() == UInt8(ascii: ")") else { throw fail("expected ')' to close the subexpression") }
            offset += 1
            guard case .path(let path, _) = head, path.segments.count == 1, !path.isData, !path.isThis else {
                throw fail("expected a helper name after '('", at: start + 1)
            }
            let name = path.segments[0]
            guard let helper = TemplateHelpers.find(name) else { throw fail("unknown helper '\(name)'", at: start + 1) }
            try Self.checkInline(helper, name, at: start + 1, self)
            let call = TemplateCall(
                name: name, helper: helper, parameters: parameters, hash: hash, position: position(start))
            try checkArguments(call, at: start + 1)
            return .call(call)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .literal(.string(try quoted(next)))
        default:
            if let number = numberLiteral() { return .literal(number) }
            return try path()
        }
    }

    private mutating func quoted(_ quote: UInt8) throws(TemplateError) -> String {
        let start = offset
        offset += 1
        var text: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == quote {
                text.append(quote)
                offset += 2
                continue
            }
            if byte == quote {
                offset += 1
                return String(decoding: text, as: UTF8.self)
            }
            text.append(byte)
            offset += 1
        }
        throw fail("a string is not closed", at: start)
    }

    private mutating func numberLiteral() -> TemplateLiteral? {
        var end = offset
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
        let digitsStart = end
        while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
        guard end > digitsStart else { return nil }
        var isDouble = false
        if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "."), Self.isDigit(bytes[end + 1]) {
            isDouble = true
            end += 1
            while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
        }
        if end < bytes.count, !Self.isDelimiter(bytes[end]) { return nil }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        let literal: TemplateLiteral
        if !isDouble, let value = Int(text) {
            literal = .int(value)
        } else if let value = Double(text) {
            literal = .double(value)
        } else {
            return nil
        }
        offset = end
        return literal
    }

    /// A path, or the literals `true`, `false`, `null`, `undefined`.
    private mutating func path() throws(TemplateError) -> TemplateExpression {
        let start = offset
        var isData = false
        if peek() == UInt8(ascii: "@") {
            isData = true
            offset += 1
        }
        var parents = 0
        var isThis = false
        var segments: [String] = []
        while true {
            if starts(with: "../") {
                parents += 1
                offset += 3
                continue
            }
            if starts(with: "./") {
                isThis = true
                offset += 2
                continue
            }
            break
        }
        var first = true
        while true {
            let segment: String
            if peek() == UInt8(ascii: "[") {
                guard let end = find("]", from: offset) else { throw fail("a '[' segment is not closed") }
                segment = String(decoding: bytes[(offset + 1)..<end], as: UTF8.self)
                offset = end + 1
            } else {
                segment = try identifier()
                guard !segment.isEmpty else {
                    throw fail(
                        "expected a path, a literal or '(' but found '\(String(decoding: bytes[offset...].prefix(1), as: UTF8.self))'"
                    )
                }
                if first && !isData && parents == 0 && !isThis {
                    switch segment {
                    case "true" where atDelimiter: return .literal(.bool(true))
                    case "false" where atDelimiter: return .literal(.bool(false))
                    case "null" where atDelimiter, "undefined" where atDelimiter: return .literal(.null)
                    default: break
                    }
                }
            }
            if first && (segment == "this" || segment == ".") && !isData {
                isThis = true
            } else {
                segments.append(segment)
            }
            first = false
            guard let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "/") else { break }
            offset += 1
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        return .path(
            TemplatePath(parents: parents, isData: isData, isThis: isThis, segments: segments, text: text),
            position(start))
    }

    private var atDelimiter: Bool { offset >= bytes.count || Self.isDelimiter(bytes[offset]) }

    /// An identifier: anything but spaces and Handlebars' punctuation.
    private mutating func identifier() throws(TemplateError) -> String {
        let start = offset
        while offset < bytes.count, Self.isIdentifier(bytes[offset]) { offset += 1 }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// `key=` ahead: consumes it and returns the key.
    private mutating func hashKey() -> String? {
        var end = offset
        while end < bytes.count, Self.isIdentifier(bytes[end]) { end += 1 }
        guard end > offset, end < bytes.count, bytes[end] == UInt8(ascii: "=") else { return nil }
        let key = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = end + 1
        return key
    }

    /// The end of a mustache: `}}` (or `}}}`), optionally after `~`; returns whether `~` asked
    /// to strip the whitespace after it.
    private mutating func close(triple: Bool) throws(TemplateError) -> Bool {
        skipSpaces()
        var strip = false
        if peek() == UInt8(ascii: "~") {
            strip = true
            offset += 1
        }
        let closing = triple ? "}}}" : "}}"
        guard starts(with: closing) else {
            let found =
                offset < bytes.count ? "'\(String(decoding: bytes[offset...].prefix(10), as: UTF8.self))'" : "the end"
            throw fail("expected '\(closing)' but found \(found)")
        }
        offset += closing.utf8.count
        return strip
    }

    // MARK: Bytes

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func starts(with text: String) -> Bool {
        var index = offset
        for byte in text.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private func startsWord(_ word: String) -> Bool {
        guard starts(with: word) else { return false }
        let end = offset + word.utf8.count
        return end >= bytes.count || !Self.isIdentifier(bytes[end])
    }

    private func peekAfterWord(_ word: String) -> UInt8? {
        var index = offset + word.utf8.count
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index < bytes.count ? bytes[index] : nil
    }

    private func find(_ text: String, from start: Int) -> Int? {
        let needle = Array(text.utf8)
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private mutating func skipSpaces() {
        while offset < bytes.count, Self.isSpace(bytes[offset]) { offset += 1 }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isDelimiter(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "~")
            || byte == UInt8(ascii: "|")
    }

    static func isIdentifier(_ byte: UInt8) -> Bool {
        if isSpace(byte) { return false }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ";"), UInt8(ascii: "<"),
            UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
            UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"),
            UInt8(ascii: "}"), UInt8(ascii: "~"):
            return false
        default: return byte >= 0x20
        }
    }
}
