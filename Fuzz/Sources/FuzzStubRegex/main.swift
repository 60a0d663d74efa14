import FuzzDriver
import FuzzSupport
import HTTPCore
import LinearRegex
import MockEngine
import StubFormat
import StubServerKit

/// The check libFuzzer runs on every input, read as a stub regular expression, a newline, and
/// a text: compiling never crashes or hangs (petmock's regexes match in linear time, and
/// refuse what cannot be matched so); a refused pattern is an error problem that quotes it;
/// and a pattern that loads matches the text exactly when the same pattern in a non-capturing
/// group does (`(?:P)`), as body pattern and as header pattern. The same pattern searched
/// with its groups (`CapturingRegex`, what `regexExtract` uses) never crashes, reports one
/// entry per group, and, without anchors or boundaries, finds a match exactly when the
/// matching engine finds one, each match one the pattern matches whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStubRegex(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let pattern = String(decoding: bytes[..<newline], as: UTF8.self)
    let text = Array(bytes[min(newline + 1, bytes.endIndex)...])
    guard let plain = verdicts(pattern, text) else { return 0 }
    checkCaptures(pattern, String(decoding: text, as: UTF8.self))
    // Inside `\Q` or a `(?x)` comment, the closing parenthesis would be quoted or ignored.
    if ScalarText.contains(pattern, "\\Q") || ScalarText.contains(pattern, "#") { return 0 }
    guard let grouped = verdicts("(?:" + pattern + ")", text) else {
        preconditionFailure("'\(pattern)' loads but '(?:\(pattern))' does not")
    }
    precondition(plain == grouped, "'\(pattern)' and '(?:\(pattern))' differ on the text: \(plain) \(grouped)")
    return 0
}

/// The capture search agrees with the matching engine (see the target's description).
func checkCaptures(_ pattern: String, _ text: String) {
    guard let capturing = try? CapturingRegex(pattern), let matching = try? LinearTimeRegex(pattern) else { return }
    let found = capturing.firstMatch(in: text)
    if let found { precondition(found.groups.count == capturing.groupCount + 1, "'\(pattern)': group count") }
    let all = (try? capturing.matches(in: text, maximumCount: 64)) ?? []
    precondition(all.allSatisfy { $0.groups.count == capturing.groupCount + 1 }, "'\(pattern)': group count")
    // Anchors and boundaries depend on the text around a match; the whole-match engine drops them.
    if ScalarText.contains(pattern, "^") || ScalarText.contains(pattern, "$") || ScalarText.contains(pattern, "\\") {
        return
    }
    precondition((found == nil) == (matching.firstMatch(in: text) == nil), "'\(pattern)': engines disagree")
    for match in all {
        precondition(matching.wholeMatches(match.text), "'\(pattern)' found '\(match.text)', which it does not match")
    }
}

/// Whether the pattern matched the text as a body and as a header value (a header cannot
/// hold line breaks, so those are left out of it), or nil when the pattern is refused.
func verdicts(_ pattern: String, _ text: [UInt8]) -> [Bool]? {
    let mapping = StubMapping(
        id: "regex",
        request: RequestPattern(
            method: .post, url: .urlPath("/r"), headers: [NamedMatcher("X-Text", .matches(pattern))],
            bodyPatterns: [.matches(pattern)]),
        response: ResponseDefinition())
    let server: StubServer
    do {
        server = try StubServer(mappings: [mapping])
    } catch {
        guard case .setup(.load(.invalidStubs(let problems))) = error else {
            preconditionFailure("a bad pattern must be a stub problem, not \(error)")
        }
        for problem in problems {
            precondition(problem.isError && problem.kind == .invalidPattern, "unexpected problem \(problem)")
            precondition(
                problem.found?.hasPrefix("'\(pattern)' (") == true, "the problem does not quote it: \(problem)")
        }
        return nil
    }
    let header = String(decoding: text.filter { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    let request = LoggedRequest(method: .post, url: "/r", headers: ["X-Text": header], body: text)
    guard let miss = server.admin.nearMisses(for: request, limit: 1).first else {
        preconditionFailure("no near miss for the only stub")
    }
    return miss.criteria.filter { $0.name == "body" || $0.name == "header 'X-Text'" }.map(\.matched)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzStubRegex))
