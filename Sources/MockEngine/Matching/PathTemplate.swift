import HTTPCore

/// A path template such as `/api/vets/{id}`: literal segments and `{name}` variables, each
/// variable standing for a non-empty part of one path segment. A stub's `urlPathTemplate` has
/// at most one variable a segment (with optional literal text around it), as WireMock's; an
/// OpenAPI document's paths may hold several with text between them
/// (`/compare/{base}...{head}`).
package struct PathTemplate: Sendable, Hashable {
    /// One piece of a segment that holds variables.
    package enum Piece: Sendable, Hashable {
        case text(String)
        case variable(String)
    }

    package enum Segment: Sendable, Hashable {
        case literal(String)
        case variables([Piece])
    }

    package let text: String
    package let segments: [Segment]
    /// How many variables the segments hold.
    private let variableCount: Int

    private static func variableCount(_ segments: [Segment]) -> Int {
        segments.reduce(0) { count, segment in
            guard case .variables(let pieces) = segment else { return count }
            return count + pieces.count { if case .variable = $0 { true } else { false } }
        }
    }

    /// A stub's `urlPathTemplate`: one `{name}` a segment at most; anything else is refused.
    init(_ text: String) throws(PatternError) {
        self.text = text
        guard text.hasPrefix("/") else { throw PatternError(pattern: text, reason: "a template must start with '/'") }
        var segments: [Segment] = []
        for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let open = part.firstIndex(of: "{") else {
                if part.contains("}") { throw PatternError(pattern: text, reason: "'}' without '{' in '\(part)'") }
                segments.append(.literal(String(part)))
                continue
            }
            guard let close = part[open...].firstIndex(of: "}") else {
                throw PatternError(pattern: text, reason: "'{' without '}' in '\(part)'")
            }
            let name = String(part[part.index(after: open)..<close])
            let suffix = part[part.index(after: close)...]
            guard !name.isEmpty, !name.contains("{"), !suffix.contains("{"), !suffix.contains("}") else {
                throw PatternError(pattern: text, reason: "expected one '{name}' per segment, found '\(part)'")
            }
            segments.append(Self.segment(part))
        }
        self.segments = segments
        variableCount = Self.variableCount(segments)
    }

    /// An OpenAPI document's path: any number of `{name}` a segment, with text between them; a
    /// segment whose braces do not pair (or whose variables touch, `{a}{b}`) is literal text.
    package init(document text: String) {
        self.text = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(Self.segment)
        variableCount = Self.variableCount(segments)
    }

    /// A segment's pieces, or the segment as literal text when its braces do not pair.
    private static func segment(_ part: Substring) -> Segment {
        guard part.contains("{") || part.contains("}") else { return .literal(String(part)) }
        var pieces: [Piece] = []
        var rest = part
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "{") else {
                if rest.contains("}") { return .literal(String(part)) }
                pieces.append(.text(String(rest)))
                break
            }
            if open > rest.startIndex {
                let text = rest[..<open]
                if text.contains("}") { return .literal(String(part)) }
                pieces.append(.text(String(text)))
            }
            guard let close = rest[open...].firstIndex(of: "}") else { return .literal(String(part)) }
            let name = rest[rest.index(after: open)..<close]
            guard !name.isEmpty, !name.contains("{") else { return .literal(String(part)) }
            if case .variable? = pieces.last { return .literal(String(part)) }
            pieces.append(.variable(String(name)))
            rest = rest[rest.index(after: close)...]
        }
        return .variables(pieces)
    }

    /// The names of the variables, in order.
    package var variableNames: [String] {
        segments.flatMap { segment -> [String] in
            guard case .variables(let pieces) = segment else { return [] }
            return pieces.compactMap {
                if case .variable(let name) = $0 { return name }
                return nil
            }
        }
    }

    /// How many segments are literal: a literal match wins over a variable (`/items/new` before
    /// `/items/{id}`).
    package var literalCount: Int {
        segments.count { if case .literal = $0 { true } else { false } }
    }

    /// The literal segments before the first variable (`/api/vets` for `/api/vets/{id}`),
    /// used to index templates; nil when the first segment is a variable.
    var literalPrefix: String? {
        var prefix = ""
        for segment in segments {
            guard case .literal(let text) = segment else { break }
            prefix += "/" + text
        }
        return prefix.isEmpty ? nil : prefix
    }

    /// The captured values (percent-decoded) when the path fits the template, else nil.
    package func match(_ path: Substring) -> [String: String]? {
        guard path.first == "/" else { return nil }
        return match(parts: Self.parts(of: path.dropFirst()))
    }

    /// The segments of a path after its leading `/` (`items/7` gives `items`, `7`), empty ones
    /// kept: split on the UTF-8 bytes, as `/` is one byte and never inside a character (a split
    /// by `Character`, with grapheme breaking, costs ten times as much).
    package static func parts(of path: Substring) -> [Substring] {
        let utf8 = path.utf8
        var parts: [Substring] = []
        // On the string's contiguous bytes (a native string has them): the slashes counted, for
        // one allocation, then each part cut at its offsets.
        let split: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            var count = 1
            for byte in bytes where byte == UInt8(ascii: "/") { count += 1 }
            parts.reserveCapacity(count)
            var start = utf8.startIndex
            var offset = 0
            for (position, byte) in bytes.enumerated() where byte == UInt8(ascii: "/") {
                let end = utf8.index(start, offsetBy: position - offset)
                parts.append(path[start..<end])
                start = utf8.index(after: end)
                offset = position + 1
            }
            parts.append(path[start...])
        }
        if split != nil { return parts }
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                parts.append(path[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        parts.append(path[start..<utf8.endIndex])
        return parts
    }

    /// The captured values when the path's segments (after its leading `/`, split once for
    /// every template a request is tried against) fit the template, else nil. With
    /// `decodingLiterals`, a literal segment also fits its percent-encoded form (`test%20path`
    /// fits `test path`; the split comes first, so `%2F` stays inside its segment). Without
    /// `decodingValues`, the values are the segments' text as sent (still percent-encoded), for
    /// a reader that splits a value before decoding its pieces (``decoded(_:)`` gives the rest).
    package func match(
        parts: [Substring], decodingLiterals: Bool = false, decodingValues: Bool = true
    ) -> [String: String]? {
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        if variableCount > 0 { values.reserveCapacity(variableCount) }
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case .literal(let text):
                guard
                    part == text[...]
                        || (decodingLiterals && part.utf8.contains(UInt8(ascii: "%"))
                            && part.removingPercentEncoding() == text)
                else { return nil }
            case .variables(let pieces):
                guard Self.match(part, pieces, decoding: decodingValues, into: &values) else { return nil }
            }
        }
        return values
    }

    /// Matches one segment left to right: text where it stands; a variable takes at least one
    /// character, up to the first occurrence of the text after it (the last text of the
    /// segment is matched at its end), or the rest of the segment when it comes last. One pass,
    /// each search starting where the last ended.
    private static func match(
        _ part: Substring, _ pieces: [Piece], decoding: Bool, into values: inout [String: String]
    ) -> Bool {
        var rest = part
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .text(let text):
                guard rest.hasPrefix(text) else { return false }
                rest = rest.dropFirst(text.count)
            case .variable(let name):
                guard !rest.isEmpty else { return false }
                let raw: Substring
                if index + 1 == pieces.count {
                    raw = rest
                } else if case .text(let next) = pieces[index + 1] {
                    let searched = rest.dropFirst()
                    let end: Substring.Index
                    if index + 2 == pieces.count {
                        guard searched.hasSuffix(next) else { return false }
                        end = searched.index(searched.endIndex, offsetBy: -next.count)
                    } else {
                        guard let found = searched.firstRange(of: next) else { return false }
                        end = found.lowerBound
                    }
                    raw = rest[..<end]
                } else {
                    return false
                }
                values[name] = decoding ? raw.removingPercentEncoding() ?? String(raw) : String(raw)
                rest = rest[raw.endIndex...]
            }
        }
        return rest.isEmpty
    }

    /// Values captured as sent (``match(parts:decodingLiterals:decodingValues:)`` without
    /// `decodingValues`), percent-decoded as a match decodes them; the same dictionary, not a
    /// copy, when none holds a `%`.
    package static func decoded(_ values: [String: String]) -> [String: String] {
        for value in values.values where value.utf8.contains(UInt8(ascii: "%")) {
            return values.mapValues { $0.removingPercentEncoding() ?? $0 }
        }
        return values
    }
}
