import Foundation
import HTTPCore
import TestSupport
import Testing

@testable import LinearRegex
@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// Stub regular expressions: Java's syntax and whole-match semantics (`String.matches`), in
/// linear time, with what cannot be matched that way refused by name.
@Suite struct RegexTests {
    private static func matches(_ pattern: String, _ text: String) throws -> Bool {
        try CompiledRegex(pattern).wholeMatches(text)
    }

    static let cases: [(String, String, Bool)] = [
        // Literals and whole-string semantics.
        ("abc", "abc", true), ("abc", "abcd", false), ("abc", "xabc", false), ("", "", true), ("", "a", false),
        ("a]b}", "a]b}", true), ("\\{id\\}", "{id}", true),
        // Escapes.
        ("a\\.b", "a.b", true), ("a\\.b", "axb", false), ("\\/api\\/v1", "/api/v1", true), ("a\\\\b", "a\\b", true),
        ("\\t\\n\\r\\f", "\t\n\r\u{0C}", true), ("\\x41\\u0042\\0103", "ABC", true), ("\\x{1F436}", "🐶", true),
        ("\\uD83D\\uDC36", "🐶", true), ("\\Qa.b*\\E+", "a.b**", true), ("\\Qa.b\\E", "axb", false),
        // Dot and line terminators.
        ("a.c", "abc", true), ("a.c", "a\nc", false), ("a.c", "a\rc", false), ("a.c", "a\u{2028}c", false),
        ("(?s)a.c", "a\nc", true), (".", "🐶", true), ("caf.", "café", true),
        // Classes.
        ("[a-c]+", "abcab", true), ("[^a-c]+", "xyz", true), ("[^a-c]+", "xaz", false),
        ("[a-z&&[^aeiou]]+", "bcd", true), ("[a-z&&[^aeiou]]+", "bad", false), ("[a-d[m-p]]+", "amp", true),
        ("[\\d\\-.]+", "1-2.3", true), ("[-a]+", "-a-", true), ("[a-]+", "a-", true), ("[\\]\\[]+", "][", true),
        ("[.]", "x", false), ("[]a]+", "]a", true), ("[^]a]", "]", false), ("[\\w&&[^\\d]]+", "ab_", true),
        ("[\\w&&[^\\d]]+", "a1", false),
        ("\\w+", "snake_case9", true), ("\\W", "_", false), ("\\s+", " \t\n\u{0B}\u{0C}\r", true), ("\\S", " ", false),
        ("\\d+", "0123456789", true), ("\\D", "5", false), ("\\h\\v", "\t\n", true),
        ("\\p{Alpha}\\p{Digit}\\p{XDigit}+", "a1fF", true), ("\\P{Digit}+", "abc", true), ("\\p{Punct}", "!", true),
        // Unicode: scalars, categories, and Java's ASCII-only \w.
        ("\\p{L}+", "Ünïcödé", true), ("\\p{Lu}\\p{Ll}+", "Élan", true), ("\\p{IsLu}", "a", false),
        ("\\w", "é", false), ("\\p{Alpha}", "é", false), ("[à-ÿ]+", "éü", true), ("日本.", "日本語", true),
        // Anchors.
        ("^/api$", "/api", true), ("/api$", "/api\n", false), ("a$\\n", "a\n", true), ("a$\\r\\n", "a\r\n", true),
        ("a$\\nb", "a\nb", false), ("(?m)a$\\nb", "a\nb", true), ("a\\n^b", "a\nb", false),
        ("(?m)a\\n^b", "a\nb", true), ("\\Aabc\\z", "abc", true), ("abc\\Z\\n", "abc\n", true),
        ("a^b", "ab", false), ("\\bfoo\\b.*", "foo bar", true), (".*\\bfoo", "x foo", true),
        (".*\\bfoo", "xfoo", false), (".*\\Bfoo", "xfoo", true),
        // Groups and alternation.
        ("cat|dog", "dog", true), ("cat|dog", "catdog", false), ("(cat|dog)s?", "cats", true), ("a(|b)c", "ac", true),
        ("(?:ab)+", "abab", true), ("(?:ab)+", "aba", false), ("(?<id>\\d+)-x", "12-x", true),
        ("/(pets|vets)/\\d+", "/vets/7", true), ("(a*)*b", "aab", true), ("(a|b)*c", "ababc", true),
        // Quantifier bounds, lazy and possessive forms.
        ("\\d{3}-\\d{4}", "555-1234", true), ("\\d{3}", "12", false), ("a{2,3}", "aaaa", false),
        ("a{2,3}", "aaa", true),
        ("a{2,3}", "a", false), ("a{2,}", "aaaaa", true), ("a{2,}", "a", false), ("a{0}", "", true),
        ("(ab){2}", "abab", true), ("(ab){2}", "ababab", false), ("a?b", "b", true), ("a*", "", true),
        ("a+?b", "aab", true), ("a{1,2}?a", "aaa", true), ("a*+b", "aab", true), ("a*+a", "aaa", false),
        ("x?+x", "x", false), ("[ab]{1,3}+b", "abab", true), ("[ab]{1,3}+b", "abb", false), ("a++", "aaa", true),
        ("(a)++b", "aab", true),
        // Flags.
        ("(?i)hello", "HeLLo", true), ("(?i)[a-c]+", "ABC", true), ("(?i)[^a]", "A", false),
        ("hel(?i)lo", "helLO", true), ("hel(?i)lo", "HELLO", false), ("(?i:a)b", "Ab", true),
        ("(?i:a)b", "AB", false), ("(?i)a(?-i)b", "Ab", true), ("(?i)a(?-i)b", "AB", false),
        ("(?i)é", "É", false), ("(?iu)é", "É", true), ("(?x) a b # comment\n c", "abc", true),
        ("(a(?i)b)c", "aBc", true), ("(a(?i)b)c", "aBC", false),
    ]

    @Test(arguments: cases)
    func javaSemantics(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try Self.matches(pattern, text) == expected)
        let program = try CompiledRegex(pattern).program
        if program.isAssertionFree {
            var automaton = RegexDFA(program)
            #expect(Array(text.utf8).withUnsafeBufferPointer { automaton.wholeMatches($0) } == expected, "automaton")
        }
    }

    /// A pattern whose automaton has 2,048 states on a varied text: the cache starts over on
    /// the way and the answer stays right.
    @Test func theAutomatonCacheStartsOverAndStaysRight() throws {
        var seed: UInt32 = 12_345
        let text = String(
            (0..<20_000).map { _ -> Character in
                seed = seed &* 1_103_515_245 &+ 12_345
                return seed >> 16 & 1 == 0 ? "a" : "b"
            })
        let regex = try CompiledRegex("(a|b)*a(a|b){10}")
        #expect(regex.program.isAssertionFree)
        for cut in [0, 1, 2, 3] {
            let prefix = String(text.dropLast(cut))
            #expect(regex.wholeMatches(prefix) == (Array(prefix)[prefix.count - 11] == "a"))
        }
    }

    /// Patterns that take a backtracking engine exponential time answer at once here.
    static let catastrophic: [(String, String, Bool)] = [
        ("/redos/(a+)+$", "/redos/" + String(repeating: "a", count: 40) + "!", false),
        ("(a+)+$", String(repeating: "a", count: 9_999) + "!", false),
        ("(a+)+$", String(repeating: "a", count: 10_000), true),
        ("(a|aa)+$", String(repeating: "a", count: 40) + "!", false),
        ("(a|aa)+$", String(repeating: "a", count: 10_000), true),
        ("(.*a){12}", String(repeating: "a", count: 40) + "b", false),
        ("(.*a){12}", String(repeating: "a", count: 9_999) + "b", false),
        ("(.*a){12}", String(repeating: "a", count: 10_000), true),
        ("(\\w+\\s?)*$", String(repeating: "word ", count: 2_000) + "!", false),
    ]

    @Test(arguments: catastrophic)
    func catastrophicPatternsAnswer(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try Self.matches(pattern, text) == expected)
    }

    /// What is refused, and the words that say why.
    static let refusals: [(String, String)] = [
        ("(a)\\1", "a backreference '\\1' (at offset 3) cannot be matched in linear time"),
        ("(?<n>a)\\k<n>", "a backreference '\\k'"), ("a(?=b)", "lookahead '(?='"), ("a(?!b)", "lookahead '(?!'"),
        ("(?<=a)b", "lookbehind '(?<='"), ("(?<!a)b", "lookbehind '(?<!'"), ("(?>a)", "an atomic group"),
        ("(ab)++", "a possessive quantifier on more than one character"),
        ("(", "unclosed group"), ("a)", "unmatched ')'"), ("[a", "unclosed character class"),
        ("[]", "unclosed character class"),
        ("*a", "dangling quantifier '*'"), ("a**", "dangling quantifier '*'"),
        ("a{2,1}", "illegal repetition range {2,1}"), ("/api/{id}", "illegal repetition"),
        ("\\y", "unknown escape '\\y'"), ("[z-a]", "illegal character range"),
        ("\\p{Foo}", "unknown or unsupported character property 'Foo'"), ("(?d)a", "unsupported flag 'd'"),
        ("a\\", "trailing backslash"), ("\\R", "unsupported escape '\\R'"),
        ("(a{100}){200}", "more than 10000 states"), ("a{100001}", "more than 10000 states"),
        (String(repeating: "(", count: 200) + String(repeating: ")", count: 200), "nested deeper than 100"),
        (String(repeating: "[", count: 200), "nested deeper than 100"),
    ]

    @Test(arguments: refusals)
    func refusedWithAReason(_ pattern: String, _ reason: String) {
        #expect(throws: RegexError.self) { try CompiledRegex(pattern) }
        do {
            _ = try CompiledRegex(pattern)
        } catch {
            #expect(error.pattern == pattern)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func nestedQuantifiersAreFlagged() throws {
        for pattern in ["(a+)+$", "(a*)*", "(.*a){12}", "(\\w+\\s?)*", "((ab)+c)*"] {
            #expect(try CompiledRegex(pattern).backtrackingWarning?.contains("WireMock/Java") == true, "\(pattern)")
        }
        for pattern in ["/api/[a-z]+/\\d+", "(ab){2}", "(a|aa)+", "(a{2})+", "[a-z]*+x", "(a++)+"] {
            #expect(try CompiledRegex(pattern).backtrackingWarning == nil, "\(pattern)")
        }
    }

    @Test func requiredLiteralsAndPrefixesRuleOutTexts() throws {
        let regex = try CompiledRegex(".*\"name\":\\s*\"Rex\".*")
        #expect(regex.wholeMatches("{\"id\": 1, \"name\": \"Rex\"}"))
        #expect(!regex.wholeMatches("{\"id\": 1, \"name\": \"Max\"}"))
        #expect(
            RegexNode.sequence([.scalar(0x61), .character(0), .scalar(0x62), .scalar(0x63)]).requiredLiteral == [
                0x62, 0x63,
            ])
        #expect(ByteSearch("abab").occurs(in: Array("aabaabab".utf8)))
        #expect(!ByteSearch("abab").occurs(in: Array("aabaaba".utf8)))
        #expect(ByteSearch("").occurs(in: [UInt8]()))
    }
}

/// Stub patterns through the loader and the server's replies.
@Suite struct RegexStubTests {
    @Test func validateWarnsOnNestedQuantifiersAndRefusesBackreferences() throws {
        let stubs = try TemporaryStubs()
        stubs.write(
            "mappings/redos.json",
            """
            {"mappings": [
              {"request": {"urlPattern": "/redos/(a+)+$", "headers": {"X-Key": {"matches": "[a-z]+"}},
                "bodyPatterns": [{"matches": "(.*a){12}"}]}, "response": {"body": "redos"}},
              {"request": {"urlPattern": "/(a)\\\\1"}, "response": {"body": "never"}}
            ]}
            """)
        let report = try StubLoader(root: stubs.root).load()
        let file = stubs.root + "/mappings/redos.json"
        #expect(report.mappings.count == 1)
        #expect(
            report.problems.map(\.description) == [
                "\(file): warning: $.mappings[0].request.urlPattern: '/redos/(a+)+$': nested quantifier: matches in "
                    + "linear time in petmock, but backtracks catastrophically in WireMock/Java on a long near miss",
                "\(file): warning: $.mappings[0].request.bodyPatterns[0].matches: '(.*a){12}': nested quantifier: "
                    + "matches in linear time in petmock, but backtracks catastrophically in WireMock/Java on a long "
                    + "near miss",
                "\(file): error: $.mappings[1].request.urlPattern: expected a valid regular expression, found "
                    + "'/(a)\\1' (a backreference '\\1' (at offset 4) cannot be matched in linear time, and petmock "
                    + "refuses it)",
            ])
        #expect(report.problems.map(\.kind) == [.backtrackingPattern, .backtrackingPattern, .invalidPattern])
        #expect(report.warningCount == 2 && report.errorCount == 1)
    }

    @Test func aCatastrophicPatternAnswersAndTheLoopServesOn() throws {
        let server = try makeServer(mappings: [
            StubMapping(
                request: RequestPattern(method: .get, url: .urlPattern("/redos/(a+)+$")),
                response: ResponseDefinition(body: .text("redos"))),
            StubMapping(
                request: RequestPattern(
                    method: .post, url: .urlPath("/redos-body"), headers: [NamedMatcher("X-Key", .matches("(a|aa)+$"))],
                    bodyPatterns: [.matches("(.*a){12}")]),
                response: ResponseDefinition(body: .text("body"))),
            StubMapping(
                request: RequestPattern(method: .get, url: .urlPath("/ping")),
                response: ResponseDefinition(body: .text("pong"))
            ),
        ])
        #expect(server.loadProblems.filter { $0.kind == .backtrackingPattern }.count == 2)
        let run = String(repeating: "a", count: 40)
        #expect(try server.answer("/redos/\(run)!").status == 404)
        #expect(try server.answer("/redos/\(run)").text == "redos")
        #expect(try server.answer("POST", "/redos-body", headers: [("X-Key", run + "!")], body: run).status == 404)
        #expect(try server.answer("POST", "/redos-body", headers: [("X-Key", run)], body: run + "!").status == 404)
        #expect(try server.answer("POST", "/redos-body", headers: [("X-Key", run)], body: run).text == "body")
        #expect(try server.answer("/ping").text == "pong")
    }

    @Test func eachBodyMatcherLooksAtTheBodyOncePerRequest() throws {
        let mappings = (0..<20).map { index in
            StubMapping(
                request: RequestPattern(
                    method: .post, url: .urlPath("/orders"),
                    bodyPatterns: [.matches("(?s).*\"items\".*"), .contains("\"sku\":\"SKU-\(index)\"")]),
                response: ResponseDefinition(body: .text("\(index)")))
        }
        let index = try StubStore(loader: nil, codeMappings: mappings, serverVariant: nil).snapshot().index
        let items = (0..<2_000).map { "{\"sku\":\"X-\($0)\",\"qty\":1}" }.joined(separator: ",\n")
        let body = "{\"items\":[\(items)]}"
        let request = MatchableRequest(method: .post, target: "/orders", headers: HTTPHeaders(), body: Array(body.utf8))
        #expect(index.match(request, variant: nil, scenarios: ScenarioStore()) == nil)
        let misses = index.nearMisses(for: request, variant: nil, scenarios: ScenarioStore(), limit: 20)
        #expect(misses.count == 20)
        for miss in misses {
            #expect(miss.criteria.filter { $0.name == "body" }.map(\.matched) == [true, false])
        }
        let excerpt = #"'{"items":[{"sku":"X-0","qty":1}, {"sku":"X-1","qty":1}, {"sku":"X-2","qty":1}...'"#
        #expect(misses.first?.criteria.last?.actual == excerpt, "the first 80 characters, on one line")
        #expect(request.bodyVerdicts.count == 21, "the shared pattern once, each stub's own once")

        let hit = MatchableRequest(
            method: .post, target: "/orders", headers: HTTPHeaders(),
            body: Array(body.replacingOccurrences(of: "\"X-1999\"", with: "\"SKU-7\"").utf8))
        #expect(index.match(hit, variant: nil, scenarios: ScenarioStore())?.mapping.response.body == .text("7"))
    }
}

/// Random patterns over a small alphabet, where Java's and Swift's regular expressions agree:
/// the NFA, the automaton and Swift's backtracking `Regex` must give the same verdicts.
@Suite struct RegexDifferentialTests {
    /// A deterministic generator (a linear congruential one), so failures replay.
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func pattern(depth: Int = 0) -> String {
            let atoms = ["a", "b", "A", ".", "[ab]", "[^a]", "[a-b]", "\\w", "\\.", ""]
            switch depth > 3 ? 0 : next(6) {
            case 0, 1:
                let atom = atoms[next(atoms.count)]
                let quantifiers = ["", "", "*", "+", "?", "{0,2}", "{1,}", "*?", "+?", "{2}"]
                let possessive = ["*+", "++", "?+", "{1,2}+"]
                if !atom.isEmpty && next(5) == 0 { return atom + possessive[next(possessive.count)] }
                return atom.isEmpty ? atom : atom + quantifiers[next(quantifiers.count)]
            case 2: return pattern(depth: depth + 1) + pattern(depth: depth + 1)
            case 3: return pattern(depth: depth + 1) + "|" + pattern(depth: depth + 1)
            case 4:
                let quantifiers = ["", "*", "+", "?", "{1,2}"]
                return "(" + pattern(depth: depth + 1) + ")" + quantifiers[next(quantifiers.count)]
            default: return "(?:" + pattern(depth: depth + 1) + ")"
            }
        }

        mutating func text() -> String {
            String((0..<next(7)).map { _ in ["a", "b", "A", "."][next(4)] as Character })
        }
    }

    @Test func enginesAgreeOnRandomPatterns() throws {
        var generator = Generator(state: 2_026)
        for _ in 0..<400 {
            var pattern = generator.pattern()
            if generator.next(4) == 0 { pattern = "^" + pattern }
            if generator.next(4) == 0 { pattern += "$" }
            if generator.next(6) == 0 { pattern = "(?i)" + pattern }
            let compiled = try CompiledRegex(pattern)
            let swift = try Regex(pattern)
            for _ in 0..<6 {
                let text = generator.text()
                let expected = (try swift.wholeMatch(in: text)) != nil
                #expect(compiled.wholeMatches(text) == expected, "'\(pattern)' on '\(text)'")
                if compiled.program.isAssertionFree {
                    var automaton = RegexDFA(compiled.program)
                    let verdict = Array(text.utf8).withUnsafeBufferPointer { automaton.wholeMatches($0) }
                    #expect(verdict == expected, "automaton: '\(pattern)' on '\(text)'")
                }
            }
        }
    }
}

/// `LinearTimeRegex.firstMatch(in:)`: the leftmost match, the longest there, in one pass
/// (`regexExtract` uses `CapturingRegex`, Java's leftmost-first, in `RegexCaptureTests`).
@Suite struct RegexSearchTests {
    @Test func findsTheLeftmostLongestMatch() throws {
        let cases: [(pattern: String, text: String, match: String?)] = [
            ("[A-Z]+", "abc-DEF-123", "DEF"),
            ("[0-9]+", "abc", nil),
            ("a|ab", "xxab", "ab"),
            ("\\bcat\\b", "concat cat", "cat"),
            ("^abc", "abcabc", "abc"),
            ("^abc", "xabc", nil),
            ("abc$", "abcx", nil),
            ("\\Aabc", "xabc", nil),
            ("x*", "abc", ""),
            ("[a-z]+[0-9]+", "ab12cd34", "ab12"),
            ("é+", "café", "é"),
        ]
        for (pattern, text, match) in cases {
            let found = try LinearTimeRegex(pattern).firstMatch(in: text)
            #expect(found.map(String.init) == match, "\(pattern) in \(text)")
        }
    }

    @Test func aLongTextTakesOnePass() throws {
        let text = String(repeating: "a", count: 20_000) + "!"
        let regex = try LinearTimeRegex("(a+)+!")
        #expect(regex.firstMatch(in: text)?.count == 20_001)
    }
}

/// The `PREFIX.*` fast path (no program run) gives the verdicts the program gives.
@Suite struct PrefixThenAnyLineTests {
    static let texts = [
        "/api/", "/api/pets", "/api/pets?x=1", "/api", "/apix", "/API/pets", "", "/api/a\nb", "/api/a\rb",
        "/api/a\u{85}b", "/api/a\u{2028}b", "/api/a\u{2029}b", "/api/é\u{2027}", "/api/\u{C2}", "/api/😀", "x/api/",
    ]

    @Test(arguments: ["/api/.*", "^/api/.*", "/api/.*$", "^/api/.*$"])
    func agreesWithTheProgram(pattern: String) throws {
        let regex = try LinearTimeRegex(pattern)
        for text in Self.texts {
            #expect(
                regex.wholeMatches(text) == regex.program.wholeMatches(text.unicodeScalars),
                "\(pattern) on \(text.debugDescription)")
        }
        #expect(regex.wholeMatches("/api/pets"))
        #expect(!regex.wholeMatches("/api/a\nb"))
        #expect(regex.isPrefixThenAnyLine, "the byte check, not the program, answers")
    }
}

/// Matching from after the literal prefix (the rest of the pattern compiled alone) gives the
/// verdicts the whole program gives.
@Suite struct AfterPrefixTests {
    static let patterns = [
        "/api/templated/[0-9]+", "^/api/pets/[a-z]+$", "/api/x*", "/api/(a|b)+/c", "/files/.+\\.json",
        "/api/(?i)pets", "/api/\\d{2,3}", "/u/[^/]+/orders/[0-9]{1,4}", "/api/é+", "/a/$", "/a/\\b", "a^b", "/a/^b",
    ]
    static let texts = [
        "/api/templated/42", "/api/templated/", "/api/templated/4x", "/api/pets/rex", "/api/pets/Rex", "/api/",
        "/api/xxx", "/api/abab/c", "/api/c", "/files/a.json", "/files/.json", "/api/PETS", "/api/12", "/api/1234",
        "/u/7/orders/12", "/u//orders/1", "/api/éé", "/a/", "", "/a/b",
    ]

    @Test func agreesWithTheWholeProgram() throws {
        // The rest after the prefix is compiled alone where it may be (not after `^`).
        #expect(try LinearTimeRegex("/api/templated/[0-9]+").afterPrefix != nil)
        #expect(try LinearTimeRegex("/a/^b").afterPrefix == nil)
        #expect(try LinearTimeRegex("[a-z]+/x").afterPrefix == nil, "no literal prefix")
        for pattern in Self.patterns {
            let regex = try LinearTimeRegex(pattern)
            for text in Self.texts {
                #expect(
                    regex.wholeMatches(text) == regex.program.wholeMatches(text.unicodeScalars),
                    "\(pattern) on \(text.debugDescription)")
            }
        }
    }
}
