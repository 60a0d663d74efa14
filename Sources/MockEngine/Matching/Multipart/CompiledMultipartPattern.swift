import JSONKit
import LinearRegex
import Platform
import StubFormat

/// A ``MultipartPattern`` made ready: its matchers compiled, `name` turned into the
/// `Content-Disposition` criterion it stands for.
struct CompiledMultipartPattern: Sendable {
    let source: MultipartPattern
    let headers: [(name: String, matcher: CompiledMatcher)]
    let bodyPatterns: [CompiledMatcher]

    /// Compiles the entry at `path` (`$.request.multipartPatterns[0]`); nil when a matcher has
    /// an error.
    static func compile(
        _ pattern: MultipartPattern, at path: String, problems: inout [PatternProblem], clock: TimeSource
    ) -> CompiledMultipartPattern? {
        var headers: [(name: String, matcher: CompiledMatcher)] = []
        if let name = pattern.name {
            headers.append(("Content-Disposition", .contains(ByteSearch("name=\"\(name)\""))))
        }
        var failed = false
        for header in pattern.headers {
            let here = JSONPath.root.appending(key: header.name).description.dropFirst()
            guard
                let matcher = CompiledMatcher.compile(
                    header.matcher, at: "\(path).headers\(here)", problems: &problems, clock: clock)
            else {
                failed = true
                continue
            }
            headers.append((header.name, matcher))
        }
        var body: [CompiledMatcher] = []
        for (index, matcher) in pattern.bodyPatterns.enumerated() {
            guard
                let compiled = CompiledMatcher.compile(
                    matcher, at: "\(path).bodyPatterns[\(index)]", problems: &problems, clock: clock)
            else {
                failed = true
                continue
            }
            body.append(compiled)
        }
        return failed ? nil : CompiledMultipartPattern(source: pattern, headers: headers, bodyPatterns: body)
    }

    /// Whether the parts satisfy the criterion: some part (`ANY`) or every part (`ALL`); a body
    /// that is not multipart, or has no parts, never does.
    func matches(_ parts: [MultipartPart]?) -> Bool {
        guard let parts, !parts.isEmpty else { return false }
        switch source.matchingType {
        case .any: return parts.contains { differences($0, stopAtFirst: true).isEmpty }
        case .all: return parts.allSatisfy { differences($0, stopAtFirst: true).isEmpty }
        }
    }

    /// What of the criterion a part does not satisfy (`file name`, `header 'Content-Type'`,
    /// `body`), the first only when `stopAtFirst`: the one check behind matching and explaining.
    func differences(_ part: MultipartPart, stopAtFirst: Bool) -> [String] {
        var found: [String] = []
        if let fileName = source.fileName, part.dispositionParameter("filename") != fileName {
            found.append("file name")
            if stopAtFirst { return found }
        }
        for header in headers where !header.matcher.matches(values: part.headers.values(name: header.name)) {
            found.append("header '\(header.name)'")
            if stopAtFirst { return found }
        }
        guard !bodyPatterns.isEmpty else { return found }
        let text = String(decoding: part.body, as: UTF8.self)
        for matcher in bodyPatterns where !matcher.matches(text, bytes: part.body, json: { Self.json(part.body) }) {
            found.append("body")
            break
        }
        return found
    }

    private static func json(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONValue(parsing: bytes)
    }

    /// The criterion's explanation: for each part, its name and what differs.
    func criterion(_ parts: [MultipartPart]?, index: Int) -> MatchCriterion {
        let name = "multipart[\(index)]"
        guard let parts, !parts.isEmpty else {
            let actual = parts == nil ? "not a multipart body (or a malformed one)" : "no parts"
            return MatchCriterion(name: name, matched: false, expected: source.description, actual: actual, distance: 1)
        }
        let total = Double(max(1, headers.count + bodyPatterns.count + (source.fileName == nil ? 0 : 1)))
        var distances: [Double] = []
        var described: [String] = []
        for part in parts.prefix(10) {
            let differs = differences(part, stopAtFirst: false)
            distances.append(Double(differs.count) / total)
            let label = part.dispositionParameter("name").map { "'\(StringMatcher.excerpt($0))'" } ?? "unnamed"
            described.append(
                differs.isEmpty ? "\(label) matches" : "\(label) differs in \(differs.joined(separator: ", "))")
        }
        if parts.count > 10 { described.append("\(parts.count - 10) more") }
        let distance =
            source.matchingType == .any
            ? distances.min() ?? 1 : Double(distances.filter { $0 > 0 }.count) / Double(distances.count)
        return MatchCriterion(
            name: name, matched: false, expected: source.description,
            actual: "parts: " + described.joined(separator: "; "), distance: distance)
    }
}
