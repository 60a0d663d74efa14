// The documents, requests and expected statuses and bodies below are the OpenAPI 3 cases of
// Stoplight Prism's test harness, test-harness/specs/security/security-scheme-validation-*.oas3.txt
// (and *.only_oas3.txt), from https://github.com/stoplightio/prism, Copyright Stoplight, licensed
// under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0). Changed
// here: each case's curl command is written as a target and header fields, its expected answer
// as a status and body, and the challenges petmock sends are its own (see `challenges`).

import APISchema
import ContractKit
import Foundation
import OpenAPIMock
import TestSupport
import Testing

/// Prism's own security cases, served by petmock: the same status for each, the same body
/// where Prism's is the document's (not its own error document), and a `WWW-Authenticate`
/// on every 401. petmock's challenges differ from Prism's where it says more: `Bearer` for
/// oauth2 (Prism sends `OAuth2`), `realm="petmock"` (Prism's is `*`), and one for an API key
/// (Prism sends none).
@Suite struct PrismSecurityHarnessTests {
    struct HarnessCase: Sendable, CustomTestStringConvertible {
        let name: String
        let title: String
        let document: String
        let target: String
        let headers: [(String, String)]
        /// Prism's status.
        let status: Int
        /// Prism's body when it is the document's, as text.
        var body: String?
        /// What petmock's `WWW-Authenticate` must contain.
        var challenges: [String] = []
        /// petmock's status where it differs from Prism's, for a reason that is not security.
        var petmockStatus: Int?
        /// Whether Prism's body is generated from a `type: number` schema: petmock's generator
        /// makes another number.
        var generatedNumber = false

        init(
            _ name: String, _ title: String, document: String, target: String, headers: [(String, String)],
            status: Int, body: String? = nil, challenges: [String] = [], petmockStatus: Int? = nil,
            generatedNumber: Bool = false
        ) {
            self.name = name
            self.title = title
            self.document = document
            self.target = target
            self.headers = headers
            self.status = status
            self.body = body
            self.challenges = challenges
            self.petmockStatus = petmockStatus
            self.generatedNumber = generatedNumber
        }

        var testDescription: String { "\(name): \(title)" }
    }

    @Test(arguments: cases) func petmockAnswersAsPrism(_ row: HarnessCase) throws {
        let contract = try OpenAPIReader().read(Array(row.document.utf8), source: "\(row.name).yaml")
        let handler = try GeneratedStubsTests.handler(stubs: nil, fallback: OpenAPIResponder(contract: contract))
        let response = try handler.answer("GET", row.target, headers: row.headers)
        #expect(response.status == row.petmockStatus ?? row.status, "\(response.text)")
        let text = response.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if row.generatedNumber {
            #expect(Double(text) != nil, "\(text)")
        } else if let body = row.body, row.petmockStatus == nil {
            #expect(text == body)
        }
        let challenge = response.header("WWW-Authenticate")
        #expect((challenge != nil) == (response.status == 401), "\(challenge ?? "none")")
        for part in row.challenges {
            #expect(challenge?.contains(part) == true, "\(challenge ?? "none") lacks \(part)")
        }
    }

    /// Prism's AC-21 body is generated from `type: number` (0); petmock's generator makes
    /// another number, so only its being a number is compared.
    static let cases: [HarnessCase] = [
        HarnessCase(
            "AC-1",
            "Making a request (and not including any credentials) to an endpoint, which is not secured, results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                """#,
            target: "/todos", headers: [], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-2",
            "Making a request (and not including any credentials) to an endpoint, which security depends on the one and only global security scheme, results in a 401 status code response.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              schema:
                                type: number
                components:
                  securitySchemes:
                    BasicAuth:
                      type: http
                      scheme: basic
                security:
                  - BasicAuth: []
                """#,
            target: "/todos", headers: [], status: 401, challenges: ["Basic realm="]),
        HarnessCase(
            "AC-3",
            "Making a request (and not including any credentials) to an endpoint, which security depends on global security schemes, results in a 401 status code response.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              schema:
                                type: number
                components:
                  securitySchemes:
                    BasicAuth:
                      type: http
                      scheme: basic
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - BasicAuth: []
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [], status: 401, challenges: ["Basic realm=", "ApiKey", "name=\"X-API-Key\""]),
        HarnessCase(
            "AC-4",
            "Adding a header of \"Authorization: Basic <<TOKEN>>\" where TOKEN is base64 encoded <<ID>>:<<PASS>> combination for a request to an endpoint, which security depends on global security definitions, results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    BasicAuth:
                      type: http
                      scheme: basic
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - BasicAuth: []
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [("Authorization", "Basic dGVzdDp0ZXN0")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-5",
            "Adding a header of \"Authorization: Basic <<TOKEN>>\" where TOKEN is NOT base64 encoded <<ID>>:<<PASS>> combination for a request to an endpoint, which security depends on global security definitions, results in denied access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    BasicAuth:
                      type: http
                      scheme: basic
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - BasicAuth: []
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [("Authorization", "Basic abc123")], status: 401,
            challenges: ["Basic realm=", "ApiKey", "name=\"X-API-Key\""]),
        HarnessCase(
            "AC-6",
            "Adding a header of \"Authorization: Basic <<TOKEN>>\" where TOKEN is NOT base64 encoded <<ID>>:<<PASS>> combination for a request to an endpoint, that is secured by BasicAuth (one of the security definitions selected manually), results in denied access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      security:
                        - BasicAuth: []
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    BasicAuth:
                      type: http
                      scheme: basic
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - BasicAuth: []
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [("Authorization", "Basic abc123")], status: 401, challenges: ["Basic realm="]),
        HarnessCase(
            "AC-7",
            "Making a request to an operation that overrides a global security to none and my http request is not sending any http header will results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      security: []
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    BasicAuth:
                      type: http
                      scheme: basic
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - BasicAuth: []
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-8", "Resource is returned when *X-API-Key* required header is provided.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [("X-API-Key", "abc123")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-9", "Adding a required header of \"Authorization: Bearer <<BEARER_TOKEN>>\" results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    BearerAuth:
                      type: http
                      scheme: bearer
                security:
                  - BearerAuth: []
                """#,
            target: "/todos", headers: [("Authorization", "Bearer abc123")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-10",
            "When the current operation has an auth of type OAuth2 And I send a request with the header of \"Authorization: Bearer <<BEARER_TOKEN>>\" It will results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    OAuth2:
                      type: oauth2
                      flows:
                        authorizationCode:
                          authorizationUrl: /oauth/authorize
                          tokenUrl: /oauth/token
                          scopes:
                            read: Grants read access
                            write: Grants write access
                            admin: Grants read and write access to administrative information
                security:
                  - OAuth2: [read, write]
                """#,
            target: "/todos", headers: [("Authorization", "Bearer abc123")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-11",
            "Adding a required header of \"Authorization: Bearer <<BEARER_TOKEN>>\" results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                security:
                  - openId:
                      - todos_read
                components:
                  securitySchemes:
                    openId:
                      type: openIdConnect
                      openIdConnectUrl: /.well-known/openid-configuration
                """#,
            target: "/todos", headers: [("Authorization", "Bearer abc123")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-12", "Adding a required cookie with the name of SESSIONID results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    cookieAuth:
                      type: apiKey
                      in: cookie
                      name: SESSIONID
                security:
                  - cookieAuth: []
                """#,
            target: "/todos", headers: [("Cookie", "SESSIONID=abc123")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-13", "Not adding a required cookie with the name of SESSIONID results in denied access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    cookieAuth:
                      type: apiKey
                      in: cookie
                      name: SESSIONID
                security:
                  - cookieAuth: []
                """#,
            target: "/todos", headers: [], status: 401, challenges: ["ApiKey", "name=\"SESSIONID\"", "in=\"cookie\""]),
        HarnessCase(
            "AC-14", "Access to a resource is denied when *X-API-Key* required header is not provided.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [], status: 401, challenges: ["ApiKey", "name=\"X-API-Key\"", "in=\"header\""]),
        HarnessCase(
            "AC-15",
            "Adding a header of \"X-API-Key: <<API_KEY>>\" for a request to an endpoint, which security depends on manually selected ApiKeyAuth from multiple security definitions, results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      security:
                        - ApiKeyAuth: []
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    BasicAuth:
                      type: http
                      scheme: basic
                    ApiKeyAuth:
                      type: apiKey
                      in: header
                      name: X-API-Key
                security:
                  - BasicAuth: []
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [("X-API-Key", "abc123")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-16", "Supplying a header for Basic Authentication (when Bearer was needed) results in denied access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    OAuth2:
                      type: oauth2
                      flows:
                        authorizationCode:
                          authorizationUrl: /oauth/authorize
                          tokenUrl: /oauth/token
                          scopes:
                            read: Grants read access
                            write: Grants write access
                            admin: Grants read and write access to administrative information
                security:
                  - OAuth2: [read, write]
                """#,
            target: "/todos", headers: [("Authorization", "Basic dGVzdDp0ZXN0")], status: 401, challenges: ["Bearer"]),
        HarnessCase(
            "AC-17", "Using wrong type of authorization schema results in denied access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    OAuth2:
                      type: oauth2
                      flows:
                        authorizationCode:
                          authorizationUrl: /oauth/authorize
                          tokenUrl: /oauth/token
                          scopes:
                            read: Grants read access
                            write: Grants write access
                            admin: Grants read and write access to administrative information
                security:
                  - OAuth2: [read, write]
                """#,
            target: "/todos", headers: [("Authorization", "Digest abc123")], status: 401, challenges: ["Bearer"]),
        HarnessCase(
            "AC-18", "Providing an api key that is required to be in the query, results in granted access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    ApiKeyAuth:
                      type: apiKey
                      in: query
                      name: apiKey
                security:
                  - ApiKeyAuth: []
                """#,
            target: "/todos?apiKey=foo", headers: [], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-19", "Not providing an api key that is required to be in the query, results in denied access.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    ApiKeyAuth:
                      type: apiKey
                      in: query
                      name: apiKey
                security:
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [], status: 401, challenges: ["ApiKey", "name=\"apiKey\"", "in=\"query\""]),
        HarnessCase(
            "AC-20",
            "If the current document provides a response with 401 as status code And the current request is not providing the required credentials I should receive the exact specified 401 response (and not a generated one)",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                        401:
                          description: unauthorized
                          content:
                            application/json:
                              example: unauthorized
                components:
                  securitySchemes:
                    ApiKeyAuth:
                      type: apiKey
                      in: query
                      name: apiKey
                security:
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [], status: 401, body: "\"unauthorized\"",
            challenges: ["ApiKey", "name=\"apiKey\"", "in=\"query\""]),
        HarnessCase(
            "AC-21", "Not providing required credentials returns the schema generated response for 401.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                        401:
                          description: unauthorized
                          content:
                            application/json:
                              schema:
                                type: number
                components:
                  securitySchemes:
                    ApiKeyAuth:
                      type: apiKey
                      in: query
                      name: apiKey
                security:
                  - ApiKeyAuth: []
                """#,
            target: "/todos", headers: [], status: 401, body: "0",
            challenges: ["ApiKey", "name=\"apiKey\"", "in=\"query\""],
            generatedNumber: true),
        HarnessCase(
            "AC-22",
            "Making a request (and not including any credentials) to an endpoint, which security depends on the one and only global security definition, results in a 401 status code response.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    DigestAuth:
                      type: http
                      scheme: digest
                security:
                  - DigestAuth: []
                """#,
            target: "/todos", headers: [], status: 401, challenges: ["Digest realm=", "nonce="]),
        HarnessCase(
            "AC-23",
            "Making a request that includes the correct credentials to an endpoint, which security depends on the one and only global security definition, results in a 200 status code response.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    DigestAuth:
                      type: http
                      scheme: digest
                security:
                  - DigestAuth: []
                """#,
            target: "/todos",
            headers: [("Authorization", "Digest username=\"\", realm=\"\", nonce=\"\", uri=\"\", response=\"\"")],
            status: 200, body: "\"test\""),
        HarnessCase(
            "AC-24", "Providing two required API KEYS grants access to a resource.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    ApiKeyOne:
                      type: apiKey
                      in: header
                      name: X-API-Key
                    ApiKeyTwo:
                      type: apiKey
                      in: query
                      name: apiKey
                security:
                  - ApiKeyOne: []
                    ApiKeyTwo: []
                """#,
            target: "/todos?apiKey=abc123", headers: [("X-API-Key", "xyz987")], status: 200, body: "\"test\""),
        HarnessCase(
            "AC-25", "Providing just one of the two required API KEYS denies access to a resource.",
            document: #"""
                openapi: 3.0.2
                paths:
                  /todos:
                    get:
                      responses:
                        200:
                          description: OK
                          content:
                            application/json:
                              example: test
                components:
                  securitySchemes:
                    ApiKeyOne:
                      type: apiKey
                      in: header
                      name: X-API-Key
                    ApiKeyTwo:
                      type: apiKey
                      in: query
                      name: apiKey
                security:
                  - ApiKeyOne: []
                    ApiKeyTwo: []
                """#,
            target: "/todos?apiKey=abc123", headers: [], status: 401, challenges: ["ApiKey", "name=\"X-API-Key\""]),
        HarnessCase(
            "AC-26", "Not providing credentials for the both required schemes denies access to a resource.",
            document: #"""
                openapi: 3.0.0
                paths:
                  /todos:
                    get:
                      responses:
                        "200":
                          description: OK
                security:
                  - OAuth2:
                      - read
                      - write
                    BasicAuth: []
                components:
                  securitySchemes:
                    OAuth2:
                      type: oauth2
                      flows:
                        authorizationCode:
                          authorizationUrl: /oauth/authorize
                          tokenUrl: /oauth/token
                          scopes:
                            read: Grants read access
                            write: Grants write access
                            admin: Grants read and write access to administrative information
                    BasicAuth:
                      type: http
                      scheme: basic
                """#,
            target: "/todos?apiKey=abc123", headers: [], status: 401, challenges: ["Bearer", "Basic realm="]),
        HarnessCase(
            "AC-27",
            "If I have a request secured by a global security definition And such request defines a 422 response And I am sending a request that fails the input validation It will prefer the 422 user-defined response instead of creating one on the fly",
            document: #"""
                openapi: 3.0.2
                security:
                  - Basic: []
                paths:
                  /users:
                    get:
                      description: returns users
                      parameters:
                        - in: query
                          name: age
                          required: true
                      responses:
                        200:
                          description: ok
                        401:
                          $ref: '#/components/responses/InvalidAuthorization'
                        422:
                          $ref: '#/components/responses/InvalidPayload'
                components:
                  responses:
                    InvalidAuthorization:
                      description: InvalidAuthorization
                      content:
                        application/json:
                          example: xyz
                    InvalidPayload:
                      description: InvalidPayload
                      content:
                        application/json:
                          example: abc
                  securitySchemes:
                    Basic:
                      type: http
                      scheme: basic
                """#,
            target: "/users", headers: [("Authorization", "Basic dGVzdDp0ZXN0")], status: 422, body: "\"abc\""),
        HarnessCase(
            "AC-28",
            "If I have a request with a scheme that has mixed casing And I am sending a request with the correct scheme in a different casing it shuold pass the validation because HTTP schemes are case insensitive",
            document: #"""
                openapi: 3.0.2
                paths:
                  /ping:
                    get:
                      security:
                        - bearer: []
                        - basic: []
                      responses:
                        '200':
                          description: ping response
                          content:
                            text/plain:
                              schema:
                                type: string
                                example:
                                  ack!
                components:
                  securitySchemes:
                    basic:
                      type: http
                      scheme: BaSiC
                    bearer:
                      type: oauth2
                      flows:
                        clientCredentials:
                          tokenUrl: http://foo/
                """#,
            target: "/ping", headers: [("Authorization", "Basic MTpk")], status: 200, body: "ack!"),
    ]
}
