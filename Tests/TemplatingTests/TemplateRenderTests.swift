import HTTPCore
import JSONKit
import Templating
import Testing

/// Checks that each template is refused when compiled, at its line and column, with a message
/// holding the fragment.
func expectCompileErrors(
    _ cases: [(template: String, line: Int, column: Int, fragment: String)],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (template, line, column, fragment) in cases {
        do {
            _ = try Template(template)
            Issue.record("no error for \(template)", sourceLocation: sourceLocation)
        } catch {
            #expect(
                error.position == TemplatePosition(line: line, column: column), "\(template): \(error)",
                sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(template): \(error)", sourceLocation: sourceLocation)
        }
    }
}

/// A context as petmock builds it: `request` and `parameters`.
func context(
    method: String = "GET", url: String = "/things/1/two?a=1&b=x&b=y", headers: HTTPHeaders = [:], body: String = "",
    pathParameters: [String: String] = [:], parameters: JSONValue = ["flavour": "mint"]
) -> TemplateValue {
    let request = TemplateRequest(
        method: method, url: url, headers: headers, body: Array(body.utf8), baseURL: "http://localhost:8080",
        pathParameters: pathParameters, clientIP: "127.0.0.1")
    return .object([("request", .node(request)), ("parameters", .json(parameters))])
}

func render(_ source: String, _ context: TemplateValue = context(), now: Int64 = 1_700_000_000_123) throws -> String {
    try Template(source).render(context, clock: .fixed(wallNanoseconds: now * 1_000_000))
}

@Suite struct TemplateRenderTests {
    static let table: [(template: String, expected: String)] = [
        ("plain text", "plain text"),
        ("{{request.path}}", "/things/1/two"),
        ("{{request.path.[0]}}-{{request.path.[1]}}", "things-1"),
        ("{{request.pathSegments.[2]}}", "two"),
        ("{{{request.url}}}", "/things/1/two?a=1&b=x&b=y"),
        ("{{request.url}}", "/things/1/two?a=1&b=x&b=y"),
        ("{{request.query.a}}", "1"),
        ("{{request.query.b}}", "x"),
        ("{{request.query.b.[1]}}", "y"),
        ("{{request.query.b.first}} {{request.query.b.last}}", "x y"),
        ("{{request.query.missing}}|", "|"),
        ("{{request.method}}", "GET"),
        ("{{request.baseUrl}}", "http://localhost:8080"),
        ("{{parameters.flavour}}", "mint"),
        ("{{! a comment }}x{{!-- {{long}} --}}y", "xy"),
        ("\\{{request.path}}", "{{request.path}}"),
        ("a {{~ request.method ~}} b", "aGETb"),
        ("{{#if request.query.a}}yes{{else}}no{{/if}}", "yes"),
        ("{{#if request.query.z}}yes{{else if request.query.a}}second{{else}}no{{/if}}", "second"),
        ("{{#unless request.query.z}}none{{/unless}}", "none"),
        ("{{#each request.query.b}}{{@index}}={{this}};{{/each}}", "0=x;1=y;"),
        ("{{#each request.path}}{{#if @first}}[{{/if}}{{this}}{{#if @last}}]{{/if}}{{/each}}", "[things1two]"),
        ("{{#each (array 'p' 'q') as |item i|}}{{i}}{{item}}{{/each}}", "0p1q"),
        ("{{#each (parseJson '{\"x\":1,\"y\":2}')}}{{@key}}{{this}}{{/each}}", "x1y2"),
        ("{{#each (array)}}x{{else}}empty{{/each}}", "empty"),
        ("{{#with parameters}}{{flavour}}{{/with}}", "mint"),
        ("{{#each (array 1 2)}}{{request.method}}{{/each}}", "GETGET"),
        (
            "{{eq 1 1}} {{eq 'a' 'b'}} {{ne 1 2}} {{gt 3 2}} {{gte 2 2}} {{lt 1 2}} {{lte 3 2}}",
            "true false true true true true false"
        ),
        ("{{#eq request.query.a '1'}}one{{else}}other{{/eq}}", "one"),
        ("{{and true 1}} {{or false 0}} {{not false}}", "true false true"),
        ("{{eq 1 2 yes='same' no='different'}}", "different"),
        ("{{math 1 '+' 2}} {{math 10 '/' 4}} {{math 10 '/' 5}} {{math 7 '%' 4}} {{math 1.5 '*' 2}}", "3 2.5 2 3 3.0"),
        ("{{size 'abc'}} {{size (array 1 2)}} {{size request.query.b}}", "3 2 2"),
        ("[{{trim '  x  '}}]", "[x]"),
        ("{{#trim}}  y  {{/trim}}", "y"),
        ("{{upper 'abc'}} {{lower 'ABC'}} {{capitalize 'one two'}}", "ABC abc One Two"),
        ("{{{base64 'hello'}}} {{base64 'aGVsbG8=' decode=true}} {{base64 'hi' padding=false}}", "aGVsbG8= hello aGk"),
        ("{{urlEncode 'a b&c'}} {{urlEncode 'a+b%26c' decode=true}}", "a+b%26c a b&c"),
        ("{{{urlEncode 'a+b%26c' decode=true}}}", "a b&c"),
        ("{{substring 'abcdef' 1 3}} {{substring 'abcdef' 4}}", "bc ef"),
        ("{{contains 'abcdef' 'cd'}} {{contains (array 'a' 'b') 'c'}}", "true false"),
        ("{{#contains 'abc' 'b'}}has{{/contains}}", "has"),
        ("{{matches '123' '[0-9]+'}} {{matches 'a1' '[0-9]+'}}", "true false"),
        ("{{arrayJoin ',' (array 'a' 'b' 'c')}} {{arrayJoin '-' 'x' 'y'}} {{join 'x' 'y' '+'}}", "a,b,c x-y x+y"),
        ("{{arrayJoin ',' (array 1 2) prefix='[' suffix=']'}}", "[1,2]"),
        ("{{#arrayJoin ';' (array 1 2) as |n|}}<{{n}}>{{/arrayJoin}}", "<1>;<2>"),
        ("{{arrayAdd (array 1 3) 2 position=1}} {{arrayRemove (array 1 2 3) position='start'}}", "[1, 2, 3] [2, 3]"),
        ("{{request.query.b.[-1]}}", "x"),
        ("{{split 'a,b,c' ','}} {{lookup (split 'a,b,c' ',') 1}}", "[a, b, c] b"),
        ("{{val request.query.none default='dflt'}} {{val request.query.a default='dflt'}}", "dflt 1"),
        ("{{range 1 5}} {{range -1 1}}", "[1, 2, 3, 4, 5] [-1, 0, 1]"),
        ("{{array 1 'two' true}}", "[1, two, true]"),
        ("{{regexExtract 'abc-123-def' '[0-9]+'}}", "123"),
        ("{{regexExtract 'abc' '[0-9]+' default='none'}}", "none"),
        ("{{regexExtract 'ab12cd34' '[a-z]+[0-9]+'}}", "ab12"),
        ("{{jsonPath '{\"a\":{\"b\":[1,2,3]}}' '$.a.b[1]'}}", "2"),
        ("{{{jsonPath '{\"a\":{\"b\":[1,2,3]}}' '$.a.b'}}}", "[1,2,3]"),
        ("{{jsonPath '{\"a\":1}' '$.missing' default='none'}}", "none"),
        ("{{#with (parseJson '{\"name\":\"Rex\"}')}}{{name}}{{/with}}", "Rex"),
        ("{{parseJson '{\"n\":[1]}' 'parsed'}}{{parsed.n.[0]}}", "1"),
        ("{{#parseJson 'obj'}}{\"k\": \"v\"}{{/parseJson}}{{obj.k}}", "v"),
        ("{{{toJson (array 1 'a')}}}", "[\n  1,\n  \"a\"\n]"),
        (
            "{{formData 'a=1&b=two+words&b=3' 'form' urlDecode=true}}{{form.a}} {{form.b.[0]}} {{form.b.[1]}}",
            "1 two words 3"
        ),
        ("{{now}}", "2023-11-14T22:13:20Z"),
        ("{{now format='yyyy-MM-dd HH:mm:ss.SSS'}}", "2023-11-14 22:13:20.123"),
        ("{{now format='epoch'}} {{now format='unix'}}", "1700000000123 1700000000"),
        ("{{now offset='3 days' format='yyyy-MM-dd'}} {{now offset='-1 hours' format='HH'}}", "2023-11-17 21"),
        ("{{now offset='2 months' format='yyyy-MM-dd'}} {{now offset='-1 years' format='yyyy'}}", "2024-01-14 2022"),
        ("{{now timezone='+02:00' format='HH:mm XXX'}}", "00:13 +02:00"),
        ("{{now format='EEE, dd MMM yyyy HH:mm:ss z'}}", "Tue, 14 Nov 2023 22:13:20 UTC"),
        ("{{now format='dd/MM/yy hh:mm a'}}", "14/11/23 10:13 PM"),
        ("{{date (parseDate '2021-06-14T10:00:00Z') offset='1 days' format='yyyy-MM-dd'}}", "2021-06-15"),
        ("{{parseDate '14/06/2021' format='dd/MM/yyyy'}}", "2021-06-14T00:00:00Z"),
        ("{{parseDate '1623664800000' format='epoch'}}", "2021-06-14T10:00:00Z"),
        ("{{parseDate '2021-06-14T12:00:00+02:00'}}", "2021-06-14T10:00:00Z"),
        ("{{date (parseDate '2021-06-14') format='yyyy-MM-dd'}}", "2021-06-14"),
        ("{{size (randomValue length=12 type='NUMERIC')}}", "12"),
        ("{{matches (randomValue length=8 type='HEXADECIMAL') '[0-9a-f]{8}'}}", "true"),
        ("{{matches (randomValue type='ALPHABETIC' length=5 uppercase=true) '[A-Z]{5}'}}", "true"),
        ("{{size (randomValue type='UUID')}}", "36"),
        ("{{gte (randomInt lower=5 upper=9) 5}} {{lt (randomInt lower=5 upper=9) 9}}", "true true"),
        ("{{contains (array 'x' 'y') (pickRandom 'x' 'y')}}", "true"),
        ("{{size (pickRandom (array 1 2 3) count=2)}}", "2"),
        ("{{request.body}}", "<a href=\"x\">'`&"),
        ("{{{request.body}}}", "<a href=\"x\">'`&"),
        ("{{&request.body}}", "<a href=\"x\">'`&"),
        ("{{this.parameters.flavour}} {{./parameters.flavour}}", "mint mint"),
        ("{{#with parameters}}{{../request.method}}{{/with}}", "GET"),
        ("{{if true 'y' 'n'}} {{if false 'y' 'n'}}", "y n"),
        ("{{assign 'x' 'val'}}{{x}} {{#assign 'y'}}block{{/assign}}{{y}}", "val block"),
        ("{{replace 'aXbX' 'X' '-'}} {{abbreviate 'abcdefgh' 5}}", "a-b- ab..."),
        ("{{capitalize 'hELLO wORLD' fully=true}}", "Hello World"),
        ("{{val request.query.none or='alt'}}", "alt"),
    ]

    @Test func rendersTheTable() throws {
        let body = "<a href=\"x\">'`&"
        for (template, expected) in Self.table {
            let output = try render(template, context(body: body))
            #expect(output == expected, "\(template)")
        }
    }

    @Test func readsHeadersInAnyCaseAndCookies() throws {
        let headers: HTTPHeaders = HTTPHeaders([
            ("X-Trace", "abc"), ("Accept", "a"), ("accept", "b"), ("Cookie", "session=s1; theme=dark"),
        ])
        let model = context(headers: headers)
        #expect(try render("{{request.headers.x-trace}} {{request.headers.X-TRACE}}", model) == "abc abc")
        #expect(try render("{{request.headers.Accept.[1]}} {{request.headers.accept}}", model) == "b a")
        #expect(try render("{{request.headers.[X-Trace]}}", model) == "abc")
        #expect(try render("{{request.cookies.session}}-{{request.cookies.theme}}", model) == "s1-dark")
        // A combining mark after `;` must not hide it.
        let marked = context(headers: HTTPHeaders([("Cookie", "session=s1;\u{301}theme=dark")]))
        #expect(try render("{{request.cookies.session}}", marked) == "s1")
    }

    @Test func readsPathParametersAndBodies() throws {
        let model = context(
            method: "POST", url: "/users/42", body: #"{"name":"Rex","tags":["a","b"]}"#, pathParameters: ["id": "42"])
        #expect(try render("{{request.path.id}} {{request.path}}", model) == "42 /users/42")
        #expect(try render("{{jsonPath request.body '$.name'}}", model) == "Rex")
        #expect(try render("{{#each (jsonPath request.body '$.tags')}}<{{this}}>{{/each}}", model) == "<a><b>")
        #expect(try render("{{size (jsonPath request.body '$.tags')}}", model) == "2")
        #expect(try render("{{request.bodyAsBase64}}", context(body: "hi")) == "aGk=")
    }

    static let errors: [(template: String, line: Int, column: Int, fragment: String)] = [
        ("{{nope 1}}", 1, 3, "unknown helper 'nope'"),
        ("line one\n  {{#nope}}{{/nope}}", 2, 6, "unknown helper 'nope'"),
        ("{{#if true}}x", 1, 4, "the block 'if' is not closed"),
        ("{{#if true}}x{{/each}}", 1, 17, "'{{/each}}' closes the block 'if'"),
        ("{{request.path", 1, 15, "not closed"),
        ("{{jsonPath 'x' (upper}}", 1, 22, "expected ')'"),
        ("{{'unclosed}}", 1, 3, "a string is not closed"),
        ("{{/if}}", 1, 4, "closes no open block"),
        ("{{else}}", 1, 1, "outside a block"),
        ("a\nb {{> partial}}", 2, 3, "partials"),
        ("{{#if a}}{{else}}{{else}}{{/if}}", 1, 18, "a second '{{else}}'"),
        ("{{request.path 'x'}}", 1, 3, "expected a helper name"),
        ("{{!-- never closed }}", 1, 1, "a comment is not closed"),
        ("{{upper 'a' b=1 'c'}}", 1, 17, "expected 'key=value'"),
        // Found by FuzzTemplate: `with` and `each` inline are refused when compiled.
        ("#{{with parametersq}}/{{p./w}}", 1, 4, "'with' is a block helper"),
        ("{{upper (each 1)}}", 1, 10, "'each' is a block helper"),
    ]

    @Test func parseErrorsNameTheirPosition() {
        expectCompileErrors(Self.errors)
    }

    @Test func renderErrorsNameTheHelper() throws {
        let cases = [
            ("{{now offset='soon'}}", "expects an offset"),
            ("{{now timezone='Mars/Base'}}", "time zone"), ("{{parseDate 'tomorrow'}}", "cannot read"),
            ("{{jsonPath 'not json' '$.a'}}", "expects JSON"), ("{{matches 'a' '(a'}}", "cannot use the pattern"),
            ("{{substring 'abc' 2 9}}", "outside the text"), ("{{randomValue type='WORDS'}}", "expects type"),
        ]
        for (template, fragment) in cases {
            // As WireMock does, a helper's error renders in place and the render goes on.
            let output = try render("{{{" + template.dropFirst(2).dropLast(2) + "}}}x")
            #expect(output.hasPrefix("[ERROR: ") && output.hasSuffix("]x"), "\(template): \(output)")
            #expect(output.contains(fragment), "\(template): \(output)")
        }
        #expect(throws: TemplateError.self) { try render("{{#each 1}}{{/each}}{{each 1}}") }
        // A division by zero stops the render, as WireMock answers it with a 500.
        #expect(throws: TemplateError.self) { try render("{{math 1 '/' 0}}") }
    }

    @Test func boundsEveryRender() throws {
        let limits = TemplateLimits(
            maximumSourceLength: 100, maximumDepth: 4, maximumOutputLength: 50, maximumIterations: 10)
        #expect(throws: TemplateError.self) { try Template(String(repeating: "x", count: 101), limits: limits) }
        #expect(throws: TemplateError.self) {
            try Template(
                "{{#if a}}{{#if a}}{{#if a}}{{#if a}}{{#if a}}{{/if}}{{/if}}{{/if}}{{/if}}{{/if}}", limits: limits)
        }
        #expect(throws: TemplateError.self) {
            try Template("{{upper (upper (upper (upper (upper 'a'))))}}", limits: limits)
        }
        #expect(throws: TemplateError.self) {
            try Template("{{#each (range 1 20)}}x{{/each}}", limits: limits).render(context())
        }
        #expect(throws: TemplateError.self) {
            try Template("{{randomValue length=60}}", limits: limits).render(context())
        }
        let nested = try Template("{{#each (range 1 3)}}{{#each (range 1 3)}}x{{/each}}{{/each}}", limits: limits)
        #expect(throws: TemplateError.self) { try nested.render(context()) }
        #expect(try Template("{{#each (range 1 3)}}x{{/each}}", limits: limits).render(context()) == "xxx")
        // Work that writes nothing is bounded too: helpers are charged for the text they are given.
        let work = TemplateLimits(maximumIterations: 1000, maximumWork: 10_000)
        let busy = try Template(
            "{{#each (range 1 1000)}}{{#if (matches request.body '.*x')}}{{/if}}{{/each}}", limits: work)
        #expect(throws: TemplateError.self) { try busy.render(context(body: String(repeating: "a", count: 100))) }
        #expect(throws: TemplateError.self) {
            try Template("{{replace request.body 'a' 'bbbbbbbbbb'}}", limits: limits).render(context(body: "aaaaaaa"))
        }
        #expect(throws: TemplateError.self) {
            try Template("{{arrayJoin request.body (range 1 9)}}", limits: limits).render(context(body: "0123456789"))
        }
    }

    @Test func extremeNumbersAndDatesNeverTrap() throws {
        #expect(try render("{{math -9223372036854775808 '%' -1}}") == "0")
        #expect(try !render("{{math -9223372036854775808 '/' -1}}").isEmpty)
        #expect(throws: TemplateError.self) { try render("{{range -9223372036854775808 9223372036854775807}}") }
        #expect(try render("{{{parseDate '9223372036854775807' format='epoch'}}}").hasPrefix("[ERROR: "))
        #expect(try render("{{{parseDate '-9223372036854775' format='unix'}}}").hasPrefix("[ERROR: "))
        #expect(try render("{{{parseDate '99999999/01/01' format='yyyyyyyy/MM/dd'}}}").hasPrefix("[ERROR: "))
        #expect(try render("{{{date (parseDate '9999-12-31') offset='1000 years'}}}").hasPrefix("[ERROR: "))
    }

    @Test func plainTextSkipsTheRenderer() throws {
        #expect(try Template("no mustache here").plainText == "no mustache here")
        #expect(try Template("{{request.path}}").plainText == nil)
        #expect(Template.mayContainTemplate("a {{b}}"))
        #expect(!Template.mayContainTemplate("{ \"a\": {} }"))
    }
}
