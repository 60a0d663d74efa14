import APISchema
import AdminAPI
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import StubServerKit
import TestSupport
import Testing

/// The document's `security`, read and enforced: the schemes and requirements as the reader
/// keeps them, the check as a table of values (each kind of scheme, OR across requirements,
/// AND within one, `security: []`, malformed credentials), and the refusal the responder
/// makes of it (petmock's 401 problem, or the document's own 401 or 403).
@Suite struct SecurityTests {
    static func contract() throws -> Contract {
        try OpenAPIReader().read(file: OpenAPIResponderTests.folder.appendingPathComponent("secured.yaml").path)
    }

    static func reply(
        _ target: String, headers: HTTPHeaders = [:], enforces: Bool = true, validates: Bool = true
    ) throws -> FallbackAnswer {
        let responder = OpenAPIResponder(
            contract: try contract(), basePath: "/", validatesRequests: validates, enforcesSecurity: enforces)
        return try #require(responder.reply(to: HTTPServerRequest(method: .get, target: target, headers: headers)))
    }

    // MARK: The document model

    @Test func theReaderKeepsTheSchemesAndTheRequirements() throws {
        let contract = try Self.contract()
        #expect(
            contract.securitySchemes.map(\.kind) == [
                .apiKey(name: "X-API-Key", location: .header), .apiKey(name: "api_key", location: .query),
                .apiKey(name: "session", location: .cookie), .http(scheme: "basic"), .http(scheme: "bearer"), .oauth2,
                .openIdConnect,
            ])
        #expect(
            contract.security == [
                SecurityRequirement([.init(scheme: "apiKeyHeader")]), .init([.init(scheme: "basicAuth")]),
            ])
        let open = try #require(contract.operation(named: "GET /open"))
        #expect(open.security == [])
        #expect(contract.securityRequirements(of: open).isEmpty)
        let items = try #require(contract.operation(named: "GET /items"))
        #expect(items.security == nil)
        #expect(contract.securityRequirements(of: items) == contract.security)
        let both = try #require(contract.operation(named: "GET /both"))
        #expect(both.security == [.init([.init(scheme: "bearerAuth"), .init(scheme: "sessionCookie")])])
        let forbidden = try #require(contract.operation(named: "GET /forbidden"))
        #expect(forbidden.security == [.init([.init(scheme: "oauth", scopes: ["read"])])])
    }

    static func read(_ yaml: String) throws -> Contract {
        try OpenAPIReader().read(Array(yaml.utf8), source: "doc.yaml")
    }

    /// Schemes petmock cannot check are named with their JSON pointer when the document loads.
    @Test func anUnknownTypeAndAnUndefinedSchemeAreReportedWithTheirPointer() throws {
        let contract = try Self.read(
            """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            security: [{missing: []}]
            paths:
              /a/{id}:
                get:
                  security: [{key: []}, {ghost: [], odd: []}]
                  responses: {"200": {description: ok}}
            components:
              securitySchemes:
                key: {type: apiKey, in: header, name: X-Key}
                odd: {type: basic}
                nameless: {type: apiKey, in: header}
                cert: {type: mutualTLS}
            """)
        #expect(
            contract.securityScheme(named: "odd")?.kind
                == .unsupported(reason: "type 'basic' is not one of apiKey, http, mutualTLS, oauth2, openIdConnect"))
        let problems = SecurityCheck.problems(in: contract).map(\.description)
        #expect(
            problems == [
                "#/components/securitySchemes/odd: security scheme 'odd': type 'basic' is not one of apiKey, http, "
                    + "mutualTLS, oauth2, openIdConnect; requests are not checked for it",
                "#/components/securitySchemes/nameless: security scheme 'nameless': an apiKey scheme needs a 'name'; "
                    + "requests are not checked for it",
                "#/components/securitySchemes/cert: security scheme 'cert' is mutualTLS, which petmock cannot check "
                    + "over plain HTTP; requests are not checked for it",
                "#/security/0/missing: security scheme 'missing' is not defined in components/securitySchemes; "
                    + "requests are not checked for it",
                "#/paths/~1a~1{id}/get/security/1/ghost: security scheme 'ghost' is not defined in "
                    + "components/securitySchemes; requests are not checked for it",
            ])
    }

    @Test func aSecurityListThatIsNotAnArrayIsAnErrorNamingWhere() throws {
        #expect {
            _ = try Self.read("openapi: 3.1.0\ninfo: {title: t, version: '1'}\nsecurity: {key: []}\npaths: {}\n")
        } throws: { error in
            "\(error)" == "doc.yaml: $.security: expected an array, found an object"
        }
    }

    // MARK: The check, as values

    static let header = SecurityScheme(name: "headerKey", kind: .apiKey(name: "X-API-Key", location: .header))
    static let query = SecurityScheme(name: "queryKey", kind: .apiKey(name: "api_key", location: .query))
    static let cookie = SecurityScheme(name: "cookieKey", kind: .apiKey(name: "session", location: .cookie))
    static let basic = SecurityScheme(name: "basicAuth", kind: .http(scheme: "basic"))
    static let bearer = SecurityScheme(name: "bearerAuth", kind: .http(scheme: "bearer"))
    static let digest = SecurityScheme(name: "digestAuth", kind: .http(scheme: "digest"))
    static let oauth = SecurityScheme(name: "oauth", kind: .oauth2)
    static let oidc = SecurityScheme(name: "oidc", kind: .openIdConnect)
    static let cert = SecurityScheme(name: "cert", kind: .mutualTLS)
    static let unknown = SecurityScheme(name: "ghost", kind: .unsupported(reason: "not defined"))

    struct CheckCase: Sendable, CustomTestStringConvertible {
        let label: String
        let alternatives: [[SecurityScheme]]
        var headers: HTTPHeaders = [:]
        var query: String?
        /// nil: the request passes; else the violations' locations, in order.
        var refused: [String]?
        var challenges: [String] = []
        var testDescription: String { label }
    }

    static let basicChallenge = #"Basic realm="petmock""#
    static let headerChallenge = #"ApiKey realm="petmock", name="X-API-Key", in="header""#

    static let checkCases: [CheckCase] = [
        // apiKey in a header, the query and a cookie.
        CheckCase(label: "header key given", alternatives: [[header]], headers: ["x-api-key": "k1"]),
        CheckCase(
            label: "header key missing", alternatives: [[header]], refused: ["header.X-API-Key"],
            challenges: [headerChallenge]),
        CheckCase(
            label: "header key empty", alternatives: [[header]], headers: ["X-API-Key": "  "],
            refused: ["header.X-API-Key"], challenges: [headerChallenge]),
        CheckCase(label: "query key given", alternatives: [[query]], query: "a=1&api_key=k%201"),
        CheckCase(
            label: "query key empty", alternatives: [[query]], query: "api_key=", refused: ["query.api_key"],
            challenges: [#"ApiKey realm="petmock", name="api_key", in="query""#]),
        CheckCase(
            label: "query key under another name", alternatives: [[query]], query: "apikey=k",
            refused: ["query.api_key"], challenges: [#"ApiKey realm="petmock", name="api_key", in="query""#]),
        CheckCase(label: "cookie key given", alternatives: [[cookie]], headers: ["Cookie": "theme=dark; session=s1"]),
        CheckCase(
            label: "cookie key after a ';' and a combining mark", alternatives: [[cookie]],
            headers: ["Cookie": "theme=dark;\u{0301}session=s1"], refused: ["cookie.session"],
            challenges: [#"ApiKey realm="petmock", name="session", in="cookie""#]),
        CheckCase(
            label: "cookie key in a header, not a cookie", alternatives: [[cookie]], headers: ["session": "s1"],
            refused: ["cookie.session"], challenges: [#"ApiKey realm="petmock", name="session", in="cookie""#]),
        // HTTP Basic and Bearer, oauth2 and openIdConnect.
        CheckCase(
            label: "basic user:password", alternatives: [[basic]], headers: ["Authorization": "Basic dGVzdDp0ZXN0"]),
        CheckCase(
            label: "basic, scheme in other case", alternatives: [[basic]], headers: ["Authorization": "bAsIc MTpk"]),
        CheckCase(
            label: "basic with an empty password", alternatives: [[basic]], headers: ["Authorization": "Basic dGVzdDo="]
        ),
        CheckCase(
            label: "basic without a colon", alternatives: [[basic]], headers: ["Authorization": "Basic YWJjMTIz"],
            refused: ["header.Authorization"], challenges: [basicChallenge]),
        CheckCase(
            label: "basic not base64", alternatives: [[basic]], headers: ["Authorization": "Basic abc!23"],
            refused: ["header.Authorization"], challenges: [basicChallenge]),
        CheckCase(
            label: "basic with nothing after it", alternatives: [[basic]], headers: ["Authorization": "Basic"],
            refused: ["header.Authorization"], challenges: [basicChallenge]),
        CheckCase(
            label: "bearer where basic is asked", alternatives: [[basic]], headers: ["Authorization": "Bearer abc"],
            refused: ["header.Authorization"], challenges: [basicChallenge]),
        CheckCase(
            label: "bearer token", alternatives: [[bearer]], headers: ["Authorization": "Bearer eyJ.a-b_c~d+e/f=="]),
        CheckCase(
            label: "bearer, empty", alternatives: [[bearer]], headers: ["Authorization": "Bearer "],
            refused: ["header.Authorization"], challenges: ["Bearer"]),
        CheckCase(
            label: "bearer, not a token68", alternatives: [[bearer]], headers: ["Authorization": "Bearer a b"],
            refused: ["header.Authorization"], challenges: ["Bearer"]),
        CheckCase(
            label: "basic where bearer is asked", alternatives: [[bearer]],
            headers: ["Authorization": "Basic dGVzdDp0ZXN0"], refused: ["header.Authorization"], challenges: ["Bearer"]),
        CheckCase(label: "oauth2 with a bearer token", alternatives: [[oauth]], headers: ["Authorization": "bearer t"]),
        CheckCase(
            label: "oauth2 without one", alternatives: [[oauth]], refused: ["header.Authorization"],
            challenges: ["Bearer"]),
        CheckCase(
            label: "openIdConnect with a bearer token", alternatives: [[oidc]], headers: ["Authorization": "Bearer t"]),
        CheckCase(
            label: "openIdConnect without one", alternatives: [[oidc]], headers: ["Authorization": "Digest x"],
            refused: ["header.Authorization"], challenges: ["Bearer"]),
        CheckCase(label: "digest", alternatives: [[digest]], headers: ["Authorization": #"Digest username="a""#]),
        CheckCase(
            label: "digest missing", alternatives: [[digest]], refused: ["header.Authorization"],
            challenges: [#"Digest realm="petmock", nonce="petmock""#]),
        // OR across requirements, AND within one.
        CheckCase(
            label: "OR: the second alternative", alternatives: [[header], [basic]],
            headers: ["Authorization": "Basic MTpk"]),
        CheckCase(
            label: "OR: neither", alternatives: [[header], [basic]],
            refused: ["header.X-API-Key", "header.Authorization"],
            challenges: [headerChallenge, basicChallenge]),
        CheckCase(
            label: "AND: both", alternatives: [[bearer, cookie]],
            headers: ["Authorization": "Bearer t", "Cookie": "session=s"]),
        CheckCase(
            label: "AND: one of two", alternatives: [[bearer, cookie]], headers: ["Authorization": "Bearer t"],
            refused: ["cookie.session"], challenges: [#"ApiKey realm="petmock", name="session", in="cookie""#]),
        CheckCase(
            label: "AND: none, OR another", alternatives: [[oauth, basic], [query]],
            refused: ["header.Authorization", "header.Authorization", "query.api_key"],
            challenges: ["Bearer", basicChallenge, #"ApiKey realm="petmock", name="api_key", in="query""#]),
        CheckCase(
            label: "AND: both bearer-like schemes share one challenge", alternatives: [[oauth, oidc]],
            refused: ["header.Authorization", "header.Authorization"], challenges: ["Bearer"]),
        // Anonymous access, and schemes petmock cannot check.
        CheckCase(label: "security: []", alternatives: []),
        CheckCase(label: "an empty requirement beside another", alternatives: [[basic], []]),
        CheckCase(label: "mutualTLS", alternatives: [[cert]]),
        CheckCase(label: "an undefined scheme", alternatives: [[unknown]]),
        CheckCase(
            label: "an undefined scheme AND a key", alternatives: [[unknown, header]], refused: ["header.X-API-Key"],
            challenges: [headerChallenge]),
    ]

    @Test(arguments: checkCases) func theCheck(_ row: CheckCase) {
        let refusal = SecurityCheck(alternatives: row.alternatives).refusal(
            headers: row.headers, query: row.query.map { Substring($0) })
        #expect(refusal?.violations.map(\.location) == row.refused)
        #expect((refusal?.challenges ?? []) == row.challenges)
    }

    /// The violation names the scheme sent, never the credentials (it goes into the 401's body
    /// and the journal).
    @Test func aViolationSaysWhatWasExpectedAndNeverTheCredentials() throws {
        let refusal = try #require(
            SecurityCheck(alternatives: [[Self.basic], [Self.header]]).refusal(
                headers: ["Authorization": "Basic \u{1B}[31m"], query: nil))
        let violation = try #require(refusal.violations.first)
        #expect(violation.expected == "Basic credentials, base64 of user:password (security scheme 'basicAuth')")
        #expect(violation.found == "'Basic' with credentials (not shown)")
        #expect(
            violation.message
                == "the Authorization header does not meet security scheme 'basicAuth': its credentials are not "
                + "base64 of user:password (requirement 1 of 2)")
        #expect(refusal.violations.last?.found == "nothing")
        #expect(
            refusal.wwwAuthenticate == #"Basic realm="petmock", ApiKey realm="petmock", name="X-API-Key", in="header""#)
    }

    @Test func aKeyNameIsQuotedInTheChallenge() throws {
        let odd = SecurityScheme(name: "odd", kind: .apiKey(name: "a\"b\\c\u{7}", location: .header))
        let refusal = try #require(SecurityCheck(alternatives: [[odd]]).refusal(headers: [:], query: nil))
        #expect(refusal.challenges == [#"ApiKey realm="petmock", name="a\"b\\c", in="header""#])
    }

    /// Without a realm (what StubSession sends on Linux), each challenge still names its scheme.
    @Test func challengesWithoutARealm() throws {
        let check = SecurityCheck(alternatives: [[Self.basic], [Self.header], [Self.digest], [Self.oauth]], realm: nil)
        let refusal = try #require(check.refusal(headers: [:], query: nil))
        #expect(
            refusal.challenges == [
                "Basic", #"ApiKey name="X-API-Key", in="header""#, #"Digest nonce="petmock""#, "Bearer",
            ])
    }

    // MARK: The responder's answer

    @Test func aRequestWithoutCredentialsGetsAProblem401() throws {
        let answer = try Self.reply("/items?limit=1")
        let response = answer.response.response
        #expect(response.status.code == 401)
        #expect(response.headers.first(name: "Content-Type") == "application/problem+json")
        #expect(
            response.headers.first(name: "WWW-Authenticate")
                == #"ApiKey realm="petmock", name="X-API-Key", in="header", Basic realm="petmock""#)
        let body = try JSONValue(parsing: response.body)
        #expect(body["type"] == .string("urn:petmock:problem:unauthorized"))
        #expect(body["status"] == .int(401))
        #expect(body["operation"] == .string("GET /items"))
        #expect(answer.operation == "GET /items")
        #expect(answer.violations.map(\.location) == ["header.X-API-Key", "header.Authorization"])
    }

    /// Security comes first, as in Prism: 401 wins over 400.
    @Test func securityIsCheckedBeforeTheParameters() throws {
        #expect(try Self.reply("/items").response.response.status.code == 401)
        let keyed = try Self.reply("/items", headers: ["X-API-Key": "k"])
        #expect(keyed.response.response.status.code == 400)
        #expect(keyed.violations.map(\.location) == ["query.limit"])
        #expect(
            try Self.reply("/items?limit=1", headers: ["Authorization": "Basic MTpk"]).response.response.status.code
                == 200)
    }

    @Test func anonymousAccessNeedsNoCredentials() throws {
        #expect(try Self.reply("/open").response.response.status.code == 200)
    }

    @Test func theDocumentsOwn401IsAnsweredWithTheChallenge() throws {
        let answer = try Self.reply("/both", headers: ["Authorization": "Bearer t"])
        let response = answer.response.response
        #expect(response.status.code == 401)
        #expect(try JSONValue(parsing: response.body) == ["error": "sign in"])
        // The document's own header gives way to the challenge naming the unmet scheme.
        #expect(
            response.headers.values(name: "WWW-Authenticate") == [
                #"ApiKey realm="petmock", name="session", in="cookie""#
            ])
        #expect(answer.violations.map(\.location) == ["cookie.session"])
        let both = try Self.reply("/both", headers: ["Authorization": "Bearer t", "Cookie": "session=s"])
        #expect(both.response.response.status.code == 200)
    }

    @Test func theDocumentsOwn403WhenItHasNo401() throws {
        let response = try Self.reply("/forbidden").response.response
        #expect(response.status.code == 403)
        #expect(try JSONValue(parsing: response.body) == ["reason": "no token"])
        #expect(response.headers.first(name: "WWW-Authenticate") == "Bearer")
        #expect(
            try Self.reply("/forbidden", headers: ["Authorization": "Bearer t"]).response.response.status.code == 200)
    }

    @Test func eitherRequirementLetsIn() throws {
        #expect(try Self.reply("/either?api_key=k").response.response.status.code == 200)
        #expect(try Self.reply("/either", headers: ["Authorization": "Bearer t"]).response.response.status.code == 200)
        #expect(try Self.reply("/either?api_key=").response.response.status.code == 401)
    }

    @Test func securityOffAnswersAsDocumented() throws {
        #expect(!OpenAPIResponder(contract: try Self.contract(), enforcesSecurity: false).enforcesSecurity)
        #expect(try Self.reply("/items?limit=1", enforces: false).response.response.status.code == 200)
        #expect(try Self.reply("/items", enforces: false).response.response.status.code == 400)
        #expect(try Self.reply("/both", enforces: false, validates: false).response.response.status.code == 200)
    }

    /// Through the handler, as `serve` answers: the 401 and the journal's reasons.
    @Test func theHandlerAnswers401AndTheJournalSaysWhy() throws {
        let handler = try GeneratedStubsTests.handler(
            stubs: nil, fallback: OpenAPIResponder(contract: try Self.contract(), basePath: "/"))
        let refused = try handler.answer("/either", headers: [("Authorization", "Basic MTpk")])
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == #"Bearer, ApiKey realm="petmock", name="api_key", in="query""#)
        #expect(try handler.answer("/either", headers: [("Authorization", "Bearer t")]).status == 200)
        let entry = try #require(handler.admin.requests().first { $0.responseStatus == 401 })
        #expect(entry.documentOperation == "GET /either")
        #expect(entry.violations.map(\.location) == ["header.Authorization", "query.api_key"])
        #expect(entry.violations.first?.message.contains("its scheme is not Bearer") == true)
    }
}
