import HTTPCore
import JSONKit
import StubFormat
import Testing

/// Postman auth helpers (`auth`, inherited from the collection and folders) and scripts
/// (`event`) as values: warnings by default, the credential required with `requiringAuth`.
@Suite struct PostmanAuthTests {
    typealias Collection = PostmanCollectionTests

    /// A collection with bearer auth at the top, a folder with an API key in a header, and
    /// requests that inherit, turn auth off, use basic, oauth2 in the query or digest.
    static let collection = #"""
        {"info": {"name": "auth", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "variable": [{"key": "token", "value": "s3cret"}],
         "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
         "event": [{"listen": "prerequest", "script": {"exec": ["pm.environment.set('x', 1)"]}},
                   {"listen": "test", "script": {"exec": [""]}}],
         "item": [
          {"name": "Pets", "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "X-Api-Key"},
                                                                {"key": "value", "value": "k1"}]},
           "event": [{"listen": "test", "script": {"exec": "pm.test('ok', () => {})"}}],
           "item": [
            \#(Collection.request("List", request: #"{"method": "GET", "url": "/pets"}"#, examples: [Collection.example()]))
           ]},
          \#(Collection.request("Inventory", request: #"{"method": "GET", "url": "/inventory", "auth": {"type": "inherit"}}"#, examples: [Collection.example()])),
          \#(Collection.request("Health", request: #"{"method": "GET", "url": "/health", "auth": {"type": "noauth"}}"#, examples: [Collection.example()])),
          \#(Collection.request("Login", request: #"{"method": "POST", "url": "/login", "auth": {"type": "basic", "basic": {"username": "ann", "password": "pw"}}}"#, examples: [Collection.example()])),
          \#(Collection.request("Feed", request: #"{"method": "GET", "url": "/feed", "auth": {"type": "oauth2", "oauth2": [{"key": "accessToken", "value": "t0k"}, {"key": "addTokenTo", "value": "queryParams"}]}}"#, examples: [Collection.example()])),
          {"name": "Old", "event": [{"listen": "prerequest", "script": {"exec": ["let a = 1"]}}, {"listen": "test", "script": {"exec": ["pm.test()"]}}],
           "request": {"method": "GET", "url": "/old", "auth": {"type": "digest", "digest": []}},
           "response": [\#(Collection.example())]}
         ]}
        """#

    static func read(requiringAuth: Bool) throws -> PostmanStubSet {
        try PostmanCollection(bytes: Array(collection.utf8), source: "auth.json").stubs(requiringAuth: requiringAuth)
    }

    @Test func byDefaultTheStubsAnswerWithoutCredentialsAndEachHelperIsAWarning() throws {
        let set = try Self.read(requiringAuth: false)
        #expect(
            set.mappings.map(Collection.summary) == [
                "GET urlPath '/pets' -> 200 p4", "GET urlPath '/inventory' -> 200 p4",
                "GET urlPath '/health' -> 200 p4",
                "POST urlPath '/login' -> 200 p4", "GET urlPath '/feed' -> 200 p4", "GET urlPath '/old' -> 200 p4",
            ])
        let problems = set.problems.map { "\($0.kind) \($0.path)" }
        #expect(
            problems == [
                "scriptNotRun $.event", "authNotRequired $.auth", "scriptNotRun $.item[0].event",
                "authNotRequired $.item[0].auth", "authNotRequired $.item[3].request.auth",
                "authNotRequired $.item[4].request.auth", "scriptNotRun $.item[5].event",
                "authNotRequired $.item[5].request.auth",
            ])
        let messages = set.problems.map(\.message)
        #expect(
            messages[0]
                == "the collection has a 'prerequest' script, which petmock does not run: the stubs answer the saved examples as they are"
        )
        #expect(messages[1].hasPrefix("bearer auth (the Authorization header) is not required"))
        #expect(messages[2].hasPrefix("the folder 'Pets' has a 'test' script"))
        #expect(messages[6].hasPrefix("the request 'Old' has 'prerequest' and 'test' scripts"))
        #expect(messages[7].hasPrefix("'digest' auth is not required: petmock requires only"))
    }

    @Test func requiredTheCredentialIsMatchedAndA401AnswersWithoutIt() throws {
        let set = try Self.read(requiringAuth: true)
        let summaries = set.mappings.map(Collection.summary)
        let basic = "Basic " + "YW5uOnB3"  // ann:pw
        #expect(
            summaries == [
                "GET urlPath '/pets' h[X-Api-Key equalTo 'k1'] -> 200 p4",
                "GET urlPath '/pets' h[X-Api-Key not (equalTo 'k1')] -> 401 Content-Type: application/problem+json json "
                    + #"{"type":"urn:petmock:problem:unauthorized","title":"Unauthorized","status":401,"detail":"The Postman request 'Pets / List' needs its apikey auth (the X-Api-Key header)"}"#,
                "GET urlPath '/inventory' h[Authorization equalTo 'Bearer s3cret'] -> 200 p4",
                "GET urlPath '/inventory' h[Authorization not (equalTo 'Bearer s3cret')] -> 401 Content-Type: "
                    + "application/problem+json WWW-Authenticate: Bearer json "
                    + #"{"type":"urn:petmock:problem:unauthorized","title":"Unauthorized","status":401,"detail":"The Postman request 'Inventory' needs its bearer auth (the Authorization header)"}"#,
                "GET urlPath '/health' -> 200 p4",
                "POST urlPath '/login' h[Authorization equalTo '\(basic)'] -> 200 p4",
                "POST urlPath '/login' h[Authorization not (equalTo '\(basic)')] -> 401 Content-Type: "
                    + "application/problem+json WWW-Authenticate: Basic json "
                    + #"{"type":"urn:petmock:problem:unauthorized","title":"Unauthorized","status":401,"detail":"The Postman request 'Login' needs its basic auth (the Authorization header)"}"#,
                "GET urlPath '/feed' q[access_token equalTo 't0k'] -> 200 p4",
                "GET urlPath '/feed' q[access_token not (equalTo 't0k')] -> 401 Content-Type: application/problem+json json "
                    + #"{"type":"urn:petmock:problem:unauthorized","title":"Unauthorized","status":401,"detail":"The Postman request 'Feed' needs its oauth2 auth (the query parameter 'access_token')"}"#,
                "GET urlPath '/old' -> 200 p4",
            ], "\(summaries.joined(separator: "\n"))")
        // Scripts and the helper petmock cannot check are still named.
        #expect(
            set.problems.map { "\($0.kind) \($0.path)" } == [
                "scriptNotRun $.event", "scriptNotRun $.item[0].event", "scriptNotRun $.item[5].event",
                "authNotRequired $.item[5].request.auth",
            ])
        // The 401 stubs say where their helper is defined.
        let refusal = try #require(set.mappings.first { $0.response.status == 401 })
        #expect(refusal.metadata?["postman"]?["defined"] == "$.item[0].auth")
    }

    static let anyBasic = "Basic (([A-Za-z0-9+/]{4})+|([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=))"

    /// Helpers that cannot be read, the v2.0 object form, a missing token and an unresolved
    /// variable.
    @Test(arguments: [
        (#"{"type": "bearer", "bearer": {"token": "abc"}}"#, "h[Authorization equalTo 'Bearer abc']", [String]()),
        (#"{"type": "bearer"}"#, "h[Authorization matches 'Bearer\\ .+']", []),
        (
            #"{"type": "bearer", "bearer": [{"key": "token", "value": "{{missing}}"}]}"#,
            "h[Authorization matches 'Bearer\\ .*']", ["unresolvedVariable $.item[0].request.auth.bearer"]
        ),
        (
            #"{"type": "basic", "basic": [{"key": "username", "value": "{{user}}"}]}"#,
            "h[Authorization matches '\(Self.anyBasic)']",
            ["unresolvedVariable $.item[0].request.auth.basic"]
        ),
        (#"{"type": "basic"}"#, "h[Authorization matches '\(Self.anyBasic)']", []),
        (
            #"{"type": "basic", "basic": [{"key": "password", "value": "pw"}]}"#,
            "h[Authorization equalTo 'Basic OnB3']", []
        ),
        (
            #"{"type": "oauth2", "oauth2": [{"key": "accessToken", "value": "t"}, {"key": "headerPrefix", "value": "Token"}]}"#,
            "h[Authorization equalTo 'Token t']", []
        ),
        (
            #"{"type": "apikey", "apikey": [{"key": "key", "value": "api_key"}, {"key": "value", "value": "v"}, {"key": "in", "value": "query"}]}"#,
            "q[api_key equalTo 'v']", []
        ),
        (#"{"type": "apikey", "apikey": []}"#, "", ["authNotRequired $.item[0].request.auth"]),
        (#"{"bearer": []}"#, "", ["authNotRequired $.item[0].request.auth"]),
        (#"[1]"#, "", ["authNotRequired $.item[0].request.auth"]),
    ])
    func helpers(auth: String, matcher: String, problems: [String]) throws {
        let json = #"""
            {"info": {"name": "a", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
             "item": [\#(Collection.request(request: #"{"method": "GET", "url": "/a", "auth": \#(auth)}"#, examples: [Collection.example()]))]}
            """#
        let set = try PostmanCollection(bytes: Array(json.utf8), source: "a.json").stubs(requiringAuth: true)
        let first = try #require(set.mappings.first)
        let summary = Collection.summary(first)
        #expect(matcher.isEmpty ? !summary.contains("[") : summary.contains(matcher), "\(summary)")
        #expect(set.mappings.count == (matcher.isEmpty ? 1 : 2))
        #expect(set.problems.map { "\($0.kind) \($0.path)" } == problems, "\(set.problems)")
    }
}
