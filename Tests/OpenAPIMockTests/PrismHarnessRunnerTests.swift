import Testing

/// The parts of `PrismHarnessTests` that read Prism's files and compare answers, as values: a
/// runner that misread a command or compared nothing would pass every case.
@Suite struct PrismHarnessRunnerTests {
    @Test(
        arguments: [
            (#"curl -i "a b" 'c "d"' e\ f"#, ["curl", "-i", "a b", #"c "d""#, "e f"]),
            (#"curl "x\"y\$z" ''"#, ["curl", #"x"y$z"#, ""]),
            ("curl -i http://h/p?a=1&b=2", ["curl", "-i", "http://h/p?a=1"]),
        ])
    func shellWordsAreSplitAsAShellSplitsThem(line: String, words: [String]) throws {
        #expect(try CurlCommand.shellWords(line) == words)
    }

    @Test(arguments: ["curl a | grep b", "curl a; b", #"curl "$HOME""#, "curl 'open", "curl a & rm -rf x"])
    func shellConstructsAreRefused(line: String) {
        #expect(throws: CurlCommand.ParseError.self) { try CurlCommand.shellWords(line) }
    }

    @Test func aCommandBecomesTheRequestCurlSends() throws {
        let get = try CurlCommand(parsing: #"curl -i http://localhost:4010/todos?x=1 -H "accept: text/plain""#)
        #expect(get.method == "GET" && get.target == "/todos?x=1" && !get.headOnly)
        #expect(get.headers.map(\.0) == ["Host", "User-Agent", "accept"])
        let head = try CurlCommand(parsing: "curl -sIXGET http://localhost:4010/pet")
        #expect(head.method == "GET" && head.headOnly)
        #expect(try CurlCommand(parsing: "curl --head http://h/").method == "HEAD")
        let form = try CurlCommand(parsing: #"curl -i http://h/p --data-urlencode "id=a/b=" -d "x=1""#)
        #expect(form.method == "POST")
        #expect(String(decoding: form.body, as: UTF8.self) == "id=a%2Fb%3D&x=1")
        #expect(form.headers.contains { $0 == ("Content-Type", "application/x-www-form-urlencoded") })
        let multipart = try CurlCommand(
            parsing: #"curl -X POST http://h/p -H "Content-Type: multipart/form-data" -F "id=1""#)
        let type = multipart.headers.first { $0.0 == "Content-Type" }?.1
        #expect(type == "multipart/form-data; boundary=\(CurlCommand.boundary)")
        #expect(String(decoding: multipart.body, as: UTF8.self).contains("name=\"id\"\r\n\r\n1\r\n"))
        let cookie = try CurlCommand(parsing: #"curl --url http://h/a --cookie "S=1" -H "Accept:""#)
        #expect(cookie.target == "/a" && cookie.headers.map(\.0) == ["Host", "User-Agent", "Cookie"])
    }

    @Test(arguments: [
        "curl -i", "curl -z http://h/", "curl -d @file http://h/", "wget http://h/", "curl http://h/ -F x",
    ])
    func whatCurlCommandDoesNotKnowIsRefused(line: String) {
        #expect(throws: CurlCommand.ParseError.self) { try CurlCommand(parsing: line) }
    }

    static func expectation(_ text: String, _ kind: PrismExpectation.Kind = .exact) throws -> PrismExpectation {
        try PrismExpectation(output: text, kind: kind)
    }

    @Test func anAnswerIsComparedAsPrismsHarnessCompares() throws {
        let json = [(name: "Content-Type", value: "application/json")]
        let exact = try Self.expectation("HTTP/1.1 200 OK\ncontent-type: application/json\nx-any: 1\n\n{\"a\": 1}")
        #expect(exact.mismatches(status: 200, headers: json + [("X-Any", "2")], body: #"{"a": 1}"#).isEmpty)
        #expect(exact.mismatches(status: 201, headers: json + [("X-Any", "2")], body: #"{"a": 1}"#).count == 1)
        #expect(exact.mismatches(status: 200, headers: json, body: #"{"a": 1}"#).count == 1, "x-any missing")
        #expect(!exact.mismatches(status: 200, headers: json + [("X-Any", "1")], body: #"{"a": 2}"#).isEmpty)
        let type = [(name: "Content-Type", value: "text/plain"), (name: "X-Any", value: "1")]
        #expect(exact.mismatches(status: 200, headers: type, body: #"{"a": 1}"#).count == 1, "content-type's value")
        let loose = try Self.expectation("HTTP/1.1 200 OK\n\n{\"a\": 1, \"b\": [{\"c\": true}]}", .loose)
        #expect(
            loose.mismatches(status: 200, headers: [], body: #"{"b": [{"c": 5, "d": 1}], "a": "x", "e": 0}"#).isEmpty)
        #expect(!loose.mismatches(status: 200, headers: [], body: #"{"a": 1, "b": [{"d": 1}]}"#).isEmpty)
        #expect(!loose.mismatches(status: 200, headers: [], body: "text").isEmpty)
        let number = try Self.expectation("HTTP/1.1 200 OK\n\n0", .loose)
        #expect(number.mismatches(status: 200, headers: [], body: "7").isEmpty)
        #expect(!number.mismatches(status: 200, headers: [], body: "7.5").isEmpty)
        let keys = try Self.expectation("HTTP/1.1 200 OK\n\n{\"a\": 1, \"b\": 2}", .keysOnly)
        #expect(keys.mismatches(status: 200, headers: [], body: #"{"a": "x", "b": "y"}"#).isEmpty)
        #expect(!keys.mismatches(status: 200, headers: [], body: #"{"b": "y", "a": "x"}"#).isEmpty)
        let xml = try Self.expectation("HTTP/1.1 200 OK\n\n<xml><id>0</id><name>a</name></xml>")
        let xmlType = [(name: "Content-Type", value: "application/xml")]
        #expect(xml.mismatches(status: 200, headers: xmlType, body: "<xml><name>b</name><id>1</id></xml>").isEmpty)
        #expect(!xml.mismatches(status: 200, headers: xmlType, body: "<root><id>1</id><name>b</name></root>").isEmpty)
    }

    @Test func aCaseFileIsReadBySection() throws {
        let text = """
            ====test====
            What it checks
            ====spec====
            openapi: 3.0.2
            ====server====
            proxy -p 4010 ${document} http://httpbin.org --errors
            ====command====
            curl -i http://localhost:4010/x
            ====expect-keysOnly====
            HTTP/1.1 200 OK

            {"a": 1}
            """
        let harnessCase = try PrismHarnessCase(name: "t.txt", text: text)
        #expect(harnessCase.title == "What it checks")
        #expect(harnessCase.server == .init(errors: true, upstream: "http://httpbin.org"))
        #expect(harnessCase.expectation.kind == .keysOnly && harnessCase.expectation.body == #"{"a": 1}"#)
        #expect(throws: PrismHarnessCase.FormatError.self) {
            try PrismHarnessCase(name: "t.txt", text: text.replacing("--errors", with: "--made-up"))
        }
        #expect(throws: PrismHarnessCase.FormatError.self) {
            try PrismHarnessCase(name: "t.txt", text: text.replacing("====expect-keysOnly====", with: "====other===="))
        }
    }
}
