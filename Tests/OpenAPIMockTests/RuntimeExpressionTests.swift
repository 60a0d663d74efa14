import APISchema
import HTTPCore
import Testing

/// OpenAPI runtime expressions as values: the specification's own examples ("Runtime
/// Expressions" and the callback examples of 3.0 and 3.1), composed templates, what an
/// exchange lacks, and each way the text can be wrong (with where).
@Suite struct RuntimeExpressionTests {
    static let exchange = RuntimeExchange(
        method: "POST", url: "http://example.org/subscribe/7?queryUrl=http%3A%2F%2Fclient",
        request: RuntimeExchange.Part(
            headers: ["Accept": "application/json", "X-Callback": "http://127.0.0.1:9/hook"],
            query: [("queryUrl", "http://clientdomain.com/stillrunning")], pathValues: ["id": "7"],
            body: Array(
                #"""
                {"user": {"uuid": "u-1"}, "id": 123, "email": "a@b.example", "callbackUrl": "http://cb.example/x",
                 "a/b": {"~k": ["zero", "one"]}, "flag": true, "nested": {"n": 1}}
                """#.utf8)),
        statusCode: 201,
        response: RuntimeExchange.Part(headers: ["Server": "petmock"], body: Array(#"{"status": "active"}"#.utf8)))

    static let values: [(String, String)] = [
        // The specification's table of examples.
        ("$method", "POST"),
        ("$request.header.accept", "application/json"),
        ("$request.path.id", "7"),
        ("$request.body#/user/uuid", "u-1"),
        ("$url", "http://example.org/subscribe/7?queryUrl=http%3A%2F%2Fclient"),
        ("$response.body#/status", "active"),
        ("$response.header.Server", "petmock"),
        ("$statusCode", "201"),
        // The callback examples.
        ("{$request.query.queryUrl}", "http://clientdomain.com/stillrunning"),
        ("{$request.body#/callbackUrl}", "http://cb.example/x"),
        (
            "http://notificationServer.com?transactionId={$request.body#/id}&email={$request.body#/email}",
            "http://notificationServer.com?transactionId=123&email=a@b.example"
        ),
        ("{$request.header.X-Callback}", "http://127.0.0.1:9/hook"),
        ("http://x/{$request.body#/id}/done", "http://x/123/done"),
        // JSON pointer escapes and indexes; values that are not strings as JSON.
        ("{$request.body#/a~1b/~0k/1}", "one"),
        ("{$request.body#/flag}", "true"),
        ("{$request.body#/nested}", #"{"n":1}"#),
        ("plain text", "plain text"),
    ]

    @Test(arguments: values) func theSpecificationsExamplesEvaluate(template: String, value: String) throws {
        #expect(try RuntimeExpressionTemplate(template).evaluate(in: Self.exchange) == value)
    }

    static let missing: [(String, String)] = [
        ("{$request.body#/callback}", "the request body has nothing at '/callback'"),
        ("{$request.body#/a~1b/~0k/2}", "the request body has nothing at '/a/b/~k/2'"),
        ("{$request.query.url}", "the request has no query parameter 'url'"),
        ("{$request.header.X-Other}", "the request has no header 'X-Other'"),
        ("{$request.path.name}", "the request has no path parameter 'name'"),
    ]

    @Test(arguments: missing) func whatTheExchangeLacksIsNamed(template: String, message: String) throws {
        let template = try RuntimeExpressionTemplate(template)
        #expect(throws: RuntimeExpressionError.self) { try template.evaluate(in: Self.exchange) }
        do {
            _ = try template.evaluate(in: Self.exchange)
        } catch {
            #expect(error.message == message)
            #expect(error.offset == nil)
        }
    }

    @Test func aBodyThatIsNotJSONIsNamed() throws {
        var exchange = Self.exchange
        exchange.request.body = Array("not json".utf8)
        do {
            _ = try RuntimeExpressionTemplate("{$request.body#/x}").evaluate(in: exchange)
            Issue.record("evaluated")
        } catch {
            #expect(error.message == "the request body is not JSON")
        }
        #expect(try RuntimeExpressionTemplate("{$request.body}").evaluate(in: exchange) == "not json")
    }

    static let invalid: [(String, Int)] = [
        ("{$request.bdy}", 10),
        ("{$foo}", 1),
        ("{$request.body#/a", 17),
        ("x}y", 1),
        ("{$request.body#a}", 15),
        ("{$request.body#/a~2}", 17),
        ("{$response.query.x}", 11),
        ("{$request.header.}", 17),
        ("{$request.header.a b}", 17),
        ("$request.body#/x/", -1),
        ("{$url", 5),
    ]

    @Test(arguments: invalid) func invalidTextSaysWhere(text: String, offset: Int) {
        do {
            let template = try RuntimeExpressionTemplate(text)
            #expect(offset == -1, "read \(template.pieces)")
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect(error.description.contains("expected"))
        }
    }

    @Test func anExpressionWrittenBackReadsTheSame() throws {
        // A `~` or `/` followed by a combining mark is still escaped on its own (the pointer is
        // written by Unicode scalar, not by character).
        let texts = [
            "$request.body#/a~1b/~0k", "$response.header.Server", "$request.query.q", "$statusCode",
            "$request.body#/a~0\u{59D}b/~1\u{301}",
        ]
        for text in texts {
            let expression = try RuntimeExpression(text)
            #expect(expression.description == text)
            #expect(try RuntimeExpression(expression.description) == expression)
        }
    }
}
