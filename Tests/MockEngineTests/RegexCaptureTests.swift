import HTTPCore
import Testing

@testable import LinearRegex

/// Finding matches with their groups (`CapturingRegex`, what `regexExtract` uses): Java's
/// `Matcher.find()` and `group(n)` answers, worked out by hand from Java's rules (leftmost
/// match, alternatives in order, greedy repetitions taking the most, reluctant the least, a
/// group keeping its last iteration), in linear time.
@Suite struct RegexCaptureTests {
    /// Pattern, text, and the first match's groups as Java reports them (nil: no match; a nil
    /// group: the group took no part).
    static let cases: [(String, String, [String?]?)] = [
        // RegexExtractHelper's use: WireMock's RTT.extractMultipleRegexValues.
        ("([a-z]+)-([A-Z]+)-([0-9]+)", "abc-DEF-123", ["abc-DEF-123", "abc", "DEF", "123"]),
        ("[A-Z]+", "abc-DEF-123", ["DEF"]),
        // Nested groups, numbered by their opening parenthesis.
        ("((a)(b(c)))", "xabc", ["abc", "abc", "a", "bc", "c"]),
        ("(?:x(y))(z)", "xyz", ["xyz", "y", "z"]),
        ("(?<year>\\d{4})-(\\d{2})", "on 2021-06-29", ["2021-06", "2021", "06"]),
        // Leftmost-first alternation (not leftmost-longest).
        ("a|ab", "ab", ["a"]),
        ("ab|a", "ab", ["ab"]),
        ("(a|ab)(c|bcd)(d*)", "abcd", ["abcd", "a", "bcd", ""]),
        ("(foo|foobar)", "foobar", ["foo", "foo"]),
        // Optional and alternative groups that take no part.
        ("(a)?(b)", "b", ["b", nil, "b"]),
        ("(a)|(b)", "xb", ["b", nil, "b"]),
        ("(a)?b", "ab", ["ab", "a"]),
        // Greedy and reluctant repetitions.
        ("(a*)(a*)", "aaa", ["aaa", "aaa", ""]),
        ("(a+?)(a*)", "aaa", ["aaa", "a", "aa"]),
        ("<(.+)>", "<x><y>", ["<x><y>", "x><y"]),
        ("<(.+?)>", "<x><y>", ["<x>", "x"]),
        ("(a{2,3})", "aaaa", ["aaa", "aaa"]),
        ("(a{2,3}?)", "aaaa", ["aa", "aa"]),
        ("(a??)(a)", "aa", ["a", "", "a"]),
        ("(\\d*?)(\\d)$", "123", ["123", "12", "3"]),
        // A repeated group keeps its last iteration; Java does not reset it on a later one.
        ("(?:(\\d)-)+", "1-2-3-", ["1-2-3-", "3"]),
        ("(a|b)*", "abba", ["abba", "a"]),
        ("(?:(a)|b)+", "ab", ["ab", "a"]),
        // Documented difference: an empty iteration does not set its group (Java: "").
        ("(a*)*", "b", ["", nil]),
        // Anchors and boundaries mean the same as in find(), not only at the match.
        ("^abc", "xabc", nil),
        ("abc$", "abcabc", ["abc"]),
        ("\\bfoo\\b", "afoo foo", ["foo"]),
        ("(?m)^(\\w+)$", "one two\nthree", ["three", "three"]),
        // Possessive repetitions give nothing back.
        ("a*+a", "aaa", nil),
        ("(a*+)b", "aab", ["aab", "aa"]),
        // Flags, classes, escapes, non-ASCII text.
        ("(?i)(ABC)", "xabc", ["abc", "abc"]),
        ("(\\p{L}+)-(\\d)", "ça-1", ["ça-1", "ça", "1"]),
        ("(🐶+)", "x🐶🐶y", ["🐶🐶", "🐶🐶"]),
        ("", "abc", [""]),
        ("x", "", nil),
    ]

    @Test(arguments: cases.indices)
    func firstMatchGroupsAreJavas(_ index: Int) throws {
        let (pattern, text, expected) = Self.cases[index]
        let match = try CapturingRegex(pattern).firstMatch(in: text)
        #expect(match?.groups.map { $0.map(String.init) } == expected, "\(pattern) on \(text)")
    }

    @Test func everyMatchAsJavasFindLoop() throws {
        func all(_ pattern: String, _ text: String) throws -> [String] {
            try CapturingRegex(pattern).matches(in: text, maximumCount: 100).map { String($0.text) }
        }
        #expect(try all("([A-Za-z]+)", "abc,def,ghi") == ["abc", "def", "ghi"])
        #expect(try all("\\d+", "ab12cd345") == ["12", "345"])
        // After an empty match the next search starts one character on.
        #expect(try all("a*", "baa") == ["", "aa", ""])
        #expect(try all("a(?:.*c)?", "aXc a") == ["aXc", "a"])
        #expect(try CapturingRegex("a").matches(in: "aaaa", maximumCount: 2).count == 2)
    }

    @Test func groupCountsNamedAndUnnamedGroups() throws {
        #expect(try CapturingRegex("(a)(?:b)(?<n>c)(?i)(d)").groupCount == 3)
        #expect(try CapturingRegex("[(]\\(").groupCount == 0)
    }

    @Test func refusesWhatItCannotReport() throws {
        #expect(throws: RegexError.self) { try CapturingRegex("(a)++") }
        #expect(throws: RegexError.self) { try CapturingRegex(String(repeating: "(a)", count: 101)) }
        #expect(throws: RegexError.self) { try CapturingRegex("(a") }
        // States × slots bounds each step's work.
        #expect(throws: RegexError.self) { try CapturingRegex("((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)){300}") }
        #expect(try CapturingRegex("((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)){30}").groupCount == 11)
        #expect(throws: RegexError.self) { try CapturingRegex("(a)\\1") }
        do {
            _ = try CapturingRegex("x(a)++")
            Issue.record("a possessive group compiled")
        } catch {
            #expect(error.reason.contains("offset 4"), "\(error.reason)")
        }
        // Matching, which does not report groups, still takes it.
        #expect(try LinearTimeRegex("(a)++").wholeMatches("aaa"))
    }

    @Test func staysLinearOnPatternsThatBacktrackInJava() throws {
        let text = String(repeating: "a", count: 20_000)
        #expect(try CapturingRegex("(a*)*b").firstMatch(in: text) == nil)
        #expect(try CapturingRegex("(x+x+)+y").firstMatch(in: String(repeating: "x", count: 5_000)) == nil)
        let match = try CapturingRegex("((a|aa)+)$").firstMatch(in: text)
        #expect(match?.groups[1]?.count == 20_000)
    }

    @Test func refusesAFindLoopThatWouldScanQuadratically() throws {
        let regex = try CapturingRegex("a(?:.*c)?")
        #expect(throws: RegexError.self) {
            try regex.matches(in: String(repeating: "a", count: 5_000), maximumCount: 10_000)
        }
        #expect(try regex.matches(in: String(repeating: "a", count: 20), maximumCount: 100).count == 20)
    }

    /// The group-0 match of the capturing engine agrees with the matching engine: the same
    /// texts have a match, and the match it reports is one the pattern matches whole.
    @Test func agreesWithTheMatchingEngineOnGeneratedPatterns() throws {
        var generator = SplitMix64(seed: 16)
        for _ in 0..<400 {
            let pattern = Self.pattern(&generator, depth: 0)
            let text = String((0..<Int(generator.next() % 8)).map { _ in generator.next() % 2 == 0 ? "a" : "b" })
            let capturing = try CapturingRegex(pattern)
            let matching = try LinearTimeRegex(pattern)
            let match = capturing.firstMatch(in: text)
            #expect((match == nil) == (matching.firstMatch(in: text) == nil), "\(pattern) on \(text)")
            if let match {
                #expect(matching.wholeMatches(match.text), "\(pattern): '\(match.text)' on \(text)")
                #expect(match.groups.count == capturing.groupCount + 1)
            }
        }
    }

    private static func pattern(_ generator: inout SplitMix64, depth: Int) -> String {
        let choice = depth > 3 ? generator.next() % 3 : generator.next() % 9
        switch choice {
        case 0: return "a"
        case 1: return "b"
        case 2: return "."
        case 3: return "(" + pattern(&generator, depth: depth + 1) + ")"
        case 4:
            let quantifier = ["*", "+", "?", "*?", "+?", "{1,2}"][Int(generator.next() % 6)]
            return "(?:" + pattern(&generator, depth: depth + 1) + ")" + quantifier
        case 5: return pattern(&generator, depth: depth + 1) + "|" + pattern(&generator, depth: depth + 1)
        default: return pattern(&generator, depth: depth + 1) + pattern(&generator, depth: depth + 1)
        }
    }
}

/// A small seeded generator, so the generated cases are the same on every run.
