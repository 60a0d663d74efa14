import HTTPCore
import Testing

@Suite struct HTTPHeadersTests {
    @Test func lookupIgnoresCaseAndKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-A": "1"]
        headers.add(name: "x-a", value: "2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers.values(name: "X-a") == ["1", "2"])
        #expect(headers.fields.map(\.name) == ["Content-Type", "X-A", "x-a"])
    }

    @Test func replaceOrAddCollapsesDuplicates() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        headers.replaceOrAdd(name: "A", value: "9")
        #expect(headers.fields.map(\.value) == ["9", "2"])
        headers.replaceOrAdd(name: "C", value: "4")
        #expect(headers["c"] == "4")
        headers.remove(name: "b")
        #expect(!headers.contains(name: "B"))
    }

    struct CookieCase: Sendable, CustomTestStringConvertible {
        let field: String
        let pairs: [String]
        var testDescription: String { field.debugDescription }
    }

    static let cookieCases = [
        CookieCase(field: "a=1; b=2", pairs: ["a=1", "b=2"]),
        CookieCase(field: " a = 1 ;\tb=x=y; ; c; =d", pairs: ["a=1", "b=x=y", "=d"]),
        // A ';' or '=' followed by a combining mark is one Character with it, still a separator.
        CookieCase(field: "a=1;\u{301}b=2", pairs: ["a=1", "\u{301}b=2"]),
        CookieCase(field: "a=\u{301}1", pairs: ["a=\u{301}1"]),
        CookieCase(field: "caf\u{E9}=\u{1F36A}", pairs: ["caf\u{E9}=\u{1F36A}"]),
    ]

    @Test(arguments: cookieCases) func cookiePairsSplitByBytes(_ row: CookieCase) {
        let headers: HTTPHeaders = ["Cookie": row.field]
        #expect(headers.cookiePairs.map { "\($0.name)=\($0.value)" } == row.pairs)
    }

    @Test func theFirstCookieOfANameWinsAcrossFields() {
        var headers: HTTPHeaders = ["Cookie": "s=1; t=2"]
        headers.add(name: "cookie", value: "s=3")
        #expect(headers.cookie(named: "s") == "1")
        #expect(headers.cookiePairs.count == 3)
        #expect(headers.cookie(named: "S") == nil)
    }

    @Test func containsUTF8ComparesBytes() {
        #expect("text/html, application/json;q=0.9".containsUTF8("application/json"))
        #expect("application/problem+json".containsUTF8("+json"))
        #expect(!"application/jso".containsUTF8("application/json"))
        #expect(!"APPLICATION/JSON".containsUTF8("application/json"), "bytes, not case-folded")
        #expect("aab".containsUTF8("ab") && "x".containsUTF8("") && !"".containsUTF8("x"))
        // A decomposed é is not the precomposed one: no Unicode equivalence.
        #expect(!"cafe\u{301}".containsUTF8("caf\u{E9}"))
        #expect("a-b-c".dropFirst(2).containsUTF8("b-c"))
    }

    @Test func rangeOfUTF8IsTheFirstOccurrence() throws {
        let text = "é://a://b"
        let range = try #require(text.rangeOfUTF8("://"))
        #expect(text[range] == "://" && text[..<range.lowerBound] == "é")
        let slice = text.dropFirst(2)
        let inSlice = try #require(slice.rangeOfUTF8("://"))
        #expect(text[..<inSlice.lowerBound] == "é://a", "indices of the string the slice is from")
        #expect(text.rangeOfUTF8("")?.isEmpty == true && text.rangeOfUTF8(":///") == nil)
    }

    @Test func firstIndexOfUTF8IsTheFirstByte() throws {
        let text = "/caf\u{e9}?a=1?b"
        let question = try #require(text.firstIndexOfUTF8(UInt8(ascii: "?")))
        #expect(text[..<question] == "/caf\u{e9}" && text[question...] == "?a=1?b")
        let slice = text[text.index(after: question)...]
        let second = try #require(slice.firstIndexOfUTF8(UInt8(ascii: "?")))
        #expect(text[..<second] == "/caf\u{e9}?a=1", "indices of the string the slice is from")
        #expect(text.firstIndexOfUTF8(UInt8(ascii: "#")) == nil && "".firstIndexOfUTF8(0) == nil)
        #expect(text.firstIndexOfUTF8(0xA9) == text.utf8.firstIndex(of: 0xA9), "a byte inside a multi-byte letter")
    }

    @Test func equalsIgnoringASCIICaseFoldsLettersOnly() {
        #expect("Content-Type".equalsIgnoringASCIICase("content-TYPE"))
        #expect(!"Content-Type".equalsIgnoringASCIICase("Content-Typ") && !"a".equalsIgnoringASCIICase("ab"))
        #expect(!"[".equalsIgnoringASCIICase("{"), "only letters fold")
        #expect(!"\u{e9}".equalsIgnoringASCIICase("\u{c9}"), "only ASCII letters fold")
        #expect("x-\u{e9}".equalsIgnoringASCIICase("X-\u{e9}"[...]))
    }

    @Test func tokenCharactersAreTheRFCs() {
        // RFC 9110 §5.6.2: tchar is ALPHA, DIGIT or one of the listed symbols; every byte asked.
        let symbols = Set("!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8.min...UInt8.max {
            let letter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            let digit = (0x30...0x39).contains(byte)
            #expect(byte.isTokenCharacter == (letter || digit || symbols.contains(byte)), "byte \(byte)")
        }
        #expect(Set(UInt8.tokenSymbols.utf8) == symbols)
    }

    @Test func trimmingTakesSpacesAndTabsFromBothEnds() {
        #expect(" \t gzip ;q=1 \t".trimmingASCIISpaces() == "gzip ;q=1")
        #expect("   ".trimmingASCIISpaces().isEmpty && "".trimmingASCIISpaces().isEmpty)
        #expect("x".trimmingASCIISpaces() == "x")
        #expect(" é ".trimmingASCIISpaces() == "é", "a multi-byte letter is kept whole")
        #expect("\u{A0}x\n".trimmingASCIISpaces() == "\u{A0}x\n", "only space and tab are trimmed")
        let inner = "a, b ,c".split(separator: ",")[1]
        #expect(inner.trimmingASCIISpaces() == "b")
    }

    @Test func listElementsAreTrimmedAndEmptyOnesSkipped() {
        func elements(_ value: String) -> [String] {
            var seen: [String] = []
            _ = HTTPHeaders.listElements(of: value) { element in
                seen.append(String(element))
                return false
            }
            return seen
        }
        #expect(elements(" gzip ,\tdeflate;q=0.5 ,, br,") == ["gzip", "deflate;q=0.5", "br"])
        #expect(elements("") == [] && elements(" , ,\t") == [])
        #expect(elements("é, x é ,ü") == ["é", "x é", "ü"])
        #expect(elements("single") == ["single"])
        // It stops at the first element the test accepts.
        var asked = 0
        #expect(
            HTTPHeaders.listElements(of: "a, b, c") {
                asked += 1; return $0 == "b"
            })
        #expect(asked == 2)
    }

    @Test func tokensInCommaSeparatedHeaders() {
        let headers: HTTPHeaders = ["Connection": "Upgrade, Keep-Alive"]
        #expect(headers.containsToken("keep-alive", inHeader: "connection"))
        #expect(!headers.containsToken("close", inHeader: "connection"))
    }
}

@Suite struct HTTPRequestHeadTests {
    @Test(
        arguments: [
            ("/api/pets?x=1", "/api/pets", "x=1"),
            ("/api/pets", "/api/pets", nil),
            ("http://example.com/api/pets?x=1", "/api/pets", "x=1"),
            ("http://example.com", "/", nil),
            ("http://example.com?q", "/", "q"),
            ("/café/é?q=é?", "/café/é", "q=é?"),
            ("/pets?", "/pets", ""),
            ("/?", "/", ""),
        ] as [(String, String, String?)])
    func pathAndQuery(target: String, path: String, query: String?) {
        let head = HTTPRequestHead(method: .get, target: target)
        #expect(head.path == path)
        #expect(head.query.map(String.init) == query)
    }

    @Test func keepAliveDefaults() {
        #expect(HTTPRequestHead(method: .get, target: "/").keepAlive)
        #expect(!HTTPRequestHead(method: .get, target: "/", headers: ["Connection": "close"]).keepAlive)
        #expect(!HTTPRequestHead(method: .get, target: "/", version: .http10).keepAlive)
        #expect(
            HTTPRequestHead(method: .get, target: "/", version: .http10, headers: ["Connection": "keep-alive"])
                .keepAlive)
    }

    @Test func queryParametersDecode() {
        let pairs = QueryParameters.parse("a=1&b=x+y&c=%2Fz&flag&bad=%zz")
        #expect(pairs.map(\.name) == ["a", "b", "c", "flag", "bad"])
        #expect(pairs.map(\.value) == ["1", "x y", "/z", "", "%zz"])
        // Split on bytes: an `&` or `=` followed by a combining mark still separates (as a
        // character-wise split would not), and empty pairs are skipped.
        let marked = QueryParameters.parse("a=1&\u{301}b=\u{301}2&&c=")
        #expect(marked.map(\.name) == ["a", "\u{301}b", "c"])
        #expect(marked.map(\.value) == ["1", "\u{301}2", ""])
        let edges = QueryParameters.parse("a=b=c&=x&&y=&%41=%42")
        #expect(edges.map(\.name) == ["a", "", "y", "A"] && edges.map(\.value) == ["b=c", "x", "", "B"])
        #expect(QueryParameters.parse("").isEmpty && QueryParameters.parse("&&").isEmpty)
        #expect(QueryParameters.parse("x=1&y".dropFirst(2)).map(\.name) == ["1", "y"], "a slice parses from its start")
    }

    @Test func aMediaTypeIsItsEssenceLowerCased() {
        #expect("Application/JSON; charset=utf-8".mediaTypeEssence == "application/json")
        #expect(" \ttext/plain \t;q=1".mediaTypeEssence == "text/plain")
        #expect("application/vnd.api+JSON".mediaTypeEssence == "application/vnd.api+json")
        #expect("".mediaTypeEssence.isEmpty && "; charset=utf-8".mediaTypeEssence.isEmpty)
        #expect("text/\u{C9}t\u{E9}".mediaTypeEssence == "text/\u{C9}t\u{E9}", "only ASCII letters are lowered")
        #expect(HTTPClientResponse(status: .ok, headers: ["Content-Type": "Text/HTML;x"]).mediaType == "text/html")
        #expect(HTTPClientResponse(status: .ok, headers: ["Content-Type": " ; x"]).mediaType == nil)
    }

    @Test func statusReasonPhrases() {
        #expect(HTTPStatus(code: 404).description == "404 Not Found")
        #expect(HTTPStatus(code: 299).reasonPhrase == "")
        #expect(HTTPStatus.noContent.forbidsBody)
    }

    @Test func aCommandLineFieldIsReadAsCurlReadsIt() throws {
        let field = try HTTPHeaders.Field(line: "Authorization:   Bearer a:b  ")
        #expect(field.name == "Authorization" && field.value == "Bearer a:b")
        #expect(try HTTPHeaders.Field(line: "X-Empty:").value == "")
        #expect(throws: HeaderFieldLineError.noColon("Authorization Bearer")) {
            try HTTPHeaders.Field(line: "Authorization Bearer")
        }
        #expect(throws: HeaderFieldLineError.badName("X Token")) { try HTTPHeaders.Field(line: "X Token: 1") }
        #expect(throws: HeaderFieldLineError.badName("")) { try HTTPHeaders.Field(line: ": 1") }
        #expect(throws: HeaderFieldLineError.badValue("X-A")) { try HTTPHeaders.Field(line: "X-A: 1\r\nX-B: 2") }
    }
}
