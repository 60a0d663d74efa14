import HTTPCore
import JSONKit
import Testing

@testable import StubFormat

/// WireMock's webhook listener in a mapping: its forms (`serveEventListeners`, the older
/// `postServeActions` array and object), its parameters, what is refused, and the round trip
/// through the one writer. The first cases are the JSON of WireMock's webhook acceptance
/// tests (`WebhooksAcceptanceViaServeEventTest`, `WebhooksAcceptanceViaPostServeActionTest`,
/// Apache-2.0), with the target server's URL written out.
@Suite struct WebhookDecodingTests {
    static func decode(_ text: String) -> (mapping: StubMapping?, problems: [StubProblem]) {
        var decoder = MappingDecoder(file: "x.json")
        guard let value = try? JSONValue(parsing: text) else { return (nil, []) }
        let mapping = decoder.decodeMapping(value, at: .root)
        return (mapping, decoder.problems)
    }

    /// WireMock's JSON forms, each with the webhooks it must read (method, url).
    @Test(arguments: [
        (
            // webhookCanBeConfiguredFromJson (serve event listeners)
            #"""
            {"request": {"urlPath": "/hook", "method": "POST"}, "response": {"status": 204},
             "serveEventListeners": [
               {"name": "webhook", "parameters": {"headers": {"Content-Type": "application/json"}, "method": "POST",
                 "body": "{ \"result\": \"SUCCESS\" }", "url": "http://127.0.0.1:8089/callback1"}},
               {"name": "webhook", "parameters": {"method": "POST", "url": "http://127.0.0.1:8089/callback2"}}]}
            """#, ["POST http://127.0.0.1:8089/callback1", "POST http://127.0.0.1:8089/callback2"]
        ),
        (
            // webhookCanBeConfiguredFromJson (post-serve actions)
            #"""
            {"request": {"urlPath": "/hook", "method": "POST"}, "response": {"status": 204},
             "postServeActions": [
               {"name": "webhook", "parameters": {"method": "POST", "url": "http://127.0.0.1:8089/callback1"}},
               {"name": "webhook", "parameters": {"method": "POST", "url": "http://127.0.0.1:8089/callback2"}}]}
            """#, ["POST http://127.0.0.1:8089/callback1", "POST http://127.0.0.1:8089/callback2"]
        ),
        (
            // appliesTemplatingToUrlMethodHeadersAndBodyViaJSON
            #"""
            {"request": {"urlPath": "/templating", "method": "POST"},
             "serveEventListeners": [{"name": "webhook", "parameters": {
               "method": "{{jsonPath originalRequest.body '$.method'}}",
               "url": "http://127.0.0.1:8089{{{jsonPath originalRequest.body '$.callbackPath'}}}",
               "headers": {"X-Single": "{{math 1 '+' 2}}", "X-Multi": ["{{math 3 'x' 2}}", "{{parameters.one}}"]},
               "body": "{{jsonPath originalRequest.body '$.name'}}", "one": "param-one-value"}}]}
            """#,
            [
                "{{jsonPath originalRequest.body '$.method'}} "
                    + "http://127.0.0.1:8089{{{jsonPath originalRequest.body '$.callbackPath'}}}"
            ]
        ),
        (
            // addsRandomDelayViaJSON
            #"""
            {"request": {"urlPath": "/delayed", "method": "POST"},
             "serveEventListeners": [{"name": "webhook", "parameters": {"method": "GET",
               "url": "http://127.0.0.1:8089/callback", "delay": {"type": "uniform", "lower": 500, "upper": 1000}}}]}
            """#, ["GET http://127.0.0.1:8089/callback"]
        ),
        (
            // WireMock's older object form of postServeActions
            #"""
            {"request": {"url": "/old"}, "postServeActions": {"webhook": {"url": "http://127.0.0.1:8089/cb"}}}
            """#, ["GET http://127.0.0.1:8089/cb"]
        ),
    ])
    func wireMocksFormsAreRead(json: String, expected: [String]) {
        let (mapping, problems) = Self.decode(json)
        // Only the warning of a parameter kept as template data (`one`).
        #expect(problems.allSatisfy { !$0.isError && $0.message.contains("kept as template data") }, "\(problems)")
        #expect(mapping?.webhooks.map { "\($0.method) \($0.url)" } == expected)
    }

    @Test func everyParameterIsReadAndExtraOnesAreData() throws {
        let (mapping, problems) = Self.decode(
            #"""
            {"request": {"url": "/x"}, "serveEventListeners": [{"name": "webhook", "requestPhases": ["AFTER_COMPLETE"],
              "parameters": {"method": "PUT", "url": "https://example.test/a?b=1",
                "headers": {"X-A": "1", "X-B": ["2", "3"]}, "jsonBody": {"id": 7},
                "delay": {"type": "fixed", "milliseconds": 25}, "team": {"name": "blue"}}}]}
            """#)
        #expect(problems.map(\.path) == ["$.serveEventListeners[0].parameters.team"], "\(problems)")
        #expect(problems.allSatisfy { !$0.isError })
        let webhook = try #require(mapping?.webhooks.first)
        #expect(webhook.method == "PUT")
        #expect(webhook.url == "https://example.test/a?b=1")
        #expect(webhook.headers.fields.map { "\($0.name)=\($0.value)" } == ["X-A=1", "X-B=2", "X-B=3"])
        #expect(webhook.body == .json(["id": 7]))
        #expect(webhook.delay == .uniform(lower: 25, upper: 25))
        #expect(webhook.extraParameters["team"] == ["name": "blue"])
        #expect(webhook.requestPhases == ["AFTER_COMPLETE"])
        #expect(webhook.parameters["team"] == ["name": "blue"])
    }

    @Test(arguments: ["body", "base64Body", "bodyFileName"])
    func theOtherBodyFieldsAreRead(field: String) {
        let value = field == "base64Body" ? "aGk=" : "hi.json"
        let (mapping, problems) = Self.decode(
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://h/", "\#(field)": "\#(value)"}}]}"#
        )
        #expect(problems.isEmpty, "\(problems)")
        let expected: ResponseBody =
            switch field {
            case "base64Body": .bytes(Array("hi".utf8))
            case "bodyFileName": .file("hi.json")
            default: .text("hi.json")
            }
        #expect(mapping?.webhooks.first?.body == expected)
    }

    /// What is refused, where, and what the message says.
    @Test(arguments: [
        (
            #"{"serveEventListeners": [{"name": "slack-notifier", "parameters": {}}]}"#,
            "$.serveEventListeners[0].name", "'slack-notifier'"
        ),
        (
            #"{"postServeActions": {"my-extension": {"url": "http://h/"}}}"#, "$.postServeActions",
            "'my-extension'"
        ),
        (
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"method": "POST"}}]}"#,
            "$.serveEventListeners[0].parameters.url", "missing field 'url'"
        ),
        (
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "/callback"}}]}"#,
            "$.serveEventListeners[0].parameters.url", "which is not http:// or https://"
        ),
        (
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "file:///etc/passwd"}}]}"#,
            "$.serveEventListeners[0].parameters.url", "petmock calls no other scheme"
        ),
        (
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://h/", "method": "PO ST"}}]}"#,
            "$.serveEventListeners[0].parameters.method", "an HTTP method"
        ),
        (
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://h/", "body": "a", "base64Body": "YQ=="}}]}"#,
            "$.serveEventListeners[0].parameters.base64Body", "one body field"
        ),
        (
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://h/", "delay": {"type": "weird"}}}]}"#,
            "$.serveEventListeners[0].parameters.delay.type", "'uniform', 'lognormal' or 'fixed'"
        ),
        (
            #"{"serveEventListeners": {"name": "webhook"}}"#, "$.serveEventListeners", "an array of"
        ),
        (
            #"{"serveEventListeners": [{"parameters": {"url": "http://h/"}}]}"#, "$.serveEventListeners[0].name",
            "missing field 'name'"
        ),
    ])
    func badListenersAreErrorsSayingWhereAndWhat(json: String, path: String, message: String) {
        let (mapping, problems) = Self.decode(json)
        #expect(mapping == nil)
        #expect(
            problems.contains { $0.isError && $0.path.hasPrefix(path) && $0.message.contains(message) },
            "\(problems.map(\.message))")
    }

    @Test func aTemplatedURLIsCheckedWhenRendered() {
        let (mapping, problems) = Self.decode(
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "{{originalRequest.headers.X-Callback}}"}}]}"#
        )
        #expect(problems.isEmpty)
        #expect(mapping?.webhooks.count == 1)
    }

    /// The one writer writes `serveEventListeners`, whatever form was read, and reading what it
    /// wrote gives the same mapping.
    @Test(arguments: [
        #"{"serveEventListeners": [{"name": "webhook", "parameters": {"method": "POST", "url": "http://h/a", "headers": {"X": ["1", "2"]}, "body": "{{originalRequest.body}}", "delay": {"type": "lognormal", "median": 10, "sigma": 0.2}, "extra": [1, 2]}}]}"#,
        #"{"postServeActions": [{"name": "webhook", "parameters": {"url": "http://h/b", "base64Body": "AAE=", "delay": {"type": "fixed", "milliseconds": 5}}}]}"#,
        #"{"postServeActions": {"webhook": {"url": "http://h/c", "jsonBody": {"a": [true]}, "delay": {"type": "uniform", "lower": 1, "upper": 3}}}}"#,
        #"{"serveEventListeners": [{"name": "webhook", "requestPhases": ["AFTER_COMPLETE"], "parameters": {"url": "http://h/d", "bodyFileName": "cb.json"}}]}"#,
    ])
    func theWriterRoundTrips(json: String) throws {
        let mapping = try #require(Self.decode(json).mapping)
        let written = mapping.json
        #expect(written.objectValue?["postServeActions"] == nil)
        #expect(written.objectValue?["serveEventListeners"] != nil)
        let again = try StubMapping(json: written)
        #expect(again == mapping)
        #expect(again.json == written)
    }

    /// A parameter petmock does not know is kept as template data, as in WireMock, with a
    /// warning naming it, where it is, and the field it is closest to.
    @Test(arguments: [
        ("header", "headers"), ("jsonbody", "jsonBody"), ("bodyFilename", "bodyFileName"), ("mehtod", "method"),
    ])
    func anUnknownParameterIsAWarningNamingTheClosestField(key: String, closest: String) throws {
        let (mapping, problems) = Self.decode(
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://h/", "\#(key)": "x"}}]}"#)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(!problem.isError)
        #expect(problem.path == "$.serveEventListeners[0].parameters.\(key)")
        #expect(problem.message.contains("'\(key)'"))
        #expect(problem.message.contains("did you mean '\(closest)'?"))
        #expect(mapping?.webhooks.first?.extraParameters[key] == "x")
    }

    /// A literal header value with a line break could never be sent: refused at load, where it is.
    @Test(arguments: [
        (#"{"X-A": "one\r\nX-Injected: two"}"#, "$.serveEventListeners[0].parameters.headers['X-A']"),
        (#"{"X-B": ["fine", "bad\nline"]}"#, "$.serveEventListeners[0].parameters.headers['X-B'][1]"),
        (#"{"X-C": "nul\u0000"}"#, "$.serveEventListeners[0].parameters.headers['X-C']"),
    ])
    func aLiteralHeaderValueWithALineBreakIsAnError(headers: String, path: String) {
        let (mapping, problems) = Self.decode(
            #"{"serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://h/", "headers": \#(headers)}}]}"#
        )
        #expect(mapping == nil)
        #expect(
            problems.contains { $0.isError && $0.path == path && $0.message.contains("no CR, LF or NUL") },
            "\(problems.map { "\($0.path) \($0.message)" })")
    }

    /// A templated value is checked when rendered, not at load.
    @Test func aTemplatedHeaderValueIsLeftToTheRender() {
        let (mapping, problems) = Self.decode(
            #"""
            {"serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://h/",
              "headers": {"X-A": "{{originalRequest.headers.X-A}}\n"}}}]}
            """#)
        #expect(problems.isEmpty, "\(problems)")
        #expect(mapping?.webhooks.count == 1)
    }

    /// `requestPhases`: WireMock's phase names; a webhook is sent once the answer is complete,
    /// so a list without `AFTER_COMPLETE` is a warning that it is never sent.
    @Test func requestPhasesAreWireMocksAndWithoutAfterCompleteTheWebhookIsNotSent() throws {
        let never = Self.decode(
            #"""
            {"serveEventListeners": [{"name": "webhook", "requestPhases": ["BEFORE_RESPONSE_SENT"],
              "parameters": {"url": "http://h/"}}]}
            """#)
        let warning = try #require(never.problems.first)
        #expect(!warning.isError && warning.path == "$.serveEventListeners[0].requestPhases")
        #expect(warning.message.contains("never sent"))
        #expect(never.mapping?.webhooks.first?.isSent == false)

        let sent = Self.decode(
            #"""
            {"serveEventListeners": [{"name": "webhook", "requestPhases": ["AFTER_MATCH", "AFTER_COMPLETE"],
              "parameters": {"url": "http://h/"}}]}
            """#)
        #expect(sent.problems.isEmpty)
        #expect(sent.mapping?.webhooks.first?.isSent == true)

        let unknown = Self.decode(
            #"""
            {"serveEventListeners": [{"name": "webhook", "requestPhases": ["AFTER_COMPLET"],
              "parameters": {"url": "http://h/"}}]}
            """#)
        #expect(unknown.mapping == nil)
        #expect(
            unknown.problems.contains {
                $0.isError && $0.path == "$.serveEventListeners[0].requestPhases[0]"
                    && $0.message.contains("did you mean 'AFTER_COMPLETE'?")
            }, "\(unknown.problems.map(\.message))")
    }
}
