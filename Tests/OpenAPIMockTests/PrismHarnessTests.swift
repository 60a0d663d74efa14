// The case files under Fixtures/prism-harness are Stoplight Prism's test harness,
// test-harness/specs of https://github.com/stoplightio/prism at commit
// ddbe0206d2edea3cad64a90e3e9d45c9ba532483, Copyright Stoplight, licensed under the Apache
// License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0; Fixtures/prism-harness/LICENSE).
// They are copied unchanged; this file reads and runs them.

import AdminAPI
import ContractKit
import Foundation
import HTTPClient
import HTTPCore
import HTTPHandlerKit
import MockEngine
import OpenAPIMock
import StubFormat
import TestSupport
import Testing

/// Prism's own test harness, every case, served by petmock as `petmock serve --openapi` serves
/// the document (`--dynamic` for Prism's `-d`, `--errors`, `--cors off`; Prism's `proxy` as
/// `--proxy-unmatched` to a local stand-in for httpbin.org on port 0): each case's curl command
/// sent through the handler the server runs, with no socket, and the answer compared as
/// Prism's harness compares (``PrismExpectation``). A case petmock answers otherwise is in
/// ``PrismDifferences`` with the reason: deliberate (docs/petmock.md, "Differences from Prism")
/// or open; a listed case that passes fails the test, so the table stays true.
@Suite struct PrismHarnessTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/prism-harness")

    /// The case files, by path under `prism-harness/`: Prism's 313 `.txt` files and its
    /// `multi-process-mode/smoke-test.oas3.text`, which Prism's `**/*.txt` leaves out.
    static let files: [String] = {
        let root = folder.path + "/"
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if (name.hasSuffix(".txt") || name.hasSuffix(".text"))
                && FileManager.default.fileExists(atPath: root + name)
            {
                names.append(name)
            }
        }
        return names.sorted()
    }()

    @Test func theHarnessIsAllThere() {
        // A run of no case checks nothing: the copy holds Prism's 314 files.
        #expect(Self.files.count == 314)
        let listed = Set(PrismDifferences.deliberate.keys).union(PrismDifferences.open.keys)
        let missing = listed.filter { !Self.files.contains($0) }
        #expect(missing.isEmpty, "the differences name no such case file: \(missing.sorted())")
        let both = Set(PrismDifferences.deliberate.keys).intersection(PrismDifferences.open.keys)
        #expect(both.isEmpty, "listed as deliberate and open: \(both.sorted())")
        let unknown = Self.challenges.keys.filter {
            !Self.files.contains("security/security-scheme-validation-\($0).txt")
        }
        #expect(unknown.isEmpty, "challenges for no such case: \(unknown.sorted())")
    }

    @Test(arguments: files) func petmockAnswersAsPrism(_ file: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        let harnessCase = try PrismHarnessCase(name: file, text: text)
        var answer: RawResponse?
        func check() throws {
            let (response, problems) = try Self.run(harnessCase)
            answer = response
            if !problems.isEmpty { Issue.record(Comment(rawValue: problems.joined(separator: "\n"))) }
        }
        if let reason = PrismDifferences.deliberate[file] ?? PrismDifferences.open[file] {
            withKnownIssue(Comment(rawValue: reason)) { try check() }
        } else {
            try check()
        }
        // petmock's own expectations hold for every case, listed or not.
        if let answer { Self.expectChallenges(file, answer) }
    }

    /// What petmock's `WWW-Authenticate` says beyond Prism (whose challenges are `Basic
    /// realm="*"` and `OAuth2`, and none for an API key): the parts each security case's
    /// challenge must contain.
    static let challenges: [String: [String]] = [
        "AC-2.oas3": ["Basic realm="],
        "AC-3.oas3": ["Basic realm=", "ApiKey", "name=\"X-API-Key\""],
        "AC-5.oas3": ["Basic realm=", "ApiKey", "name=\"X-API-Key\""],
        "AC-6.oas3": ["Basic realm="],
        "AC-13.only_oas3": ["ApiKey", "name=\"SESSIONID\"", "in=\"cookie\""],
        "AC-14.oas3": ["ApiKey", "name=\"X-API-Key\"", "in=\"header\""],
        "AC-16.oas3": ["Bearer"],
        "AC-17.oas3": ["Bearer"],
        "AC-19.oas3": ["ApiKey", "name=\"apiKey\"", "in=\"query\""],
        "AC-20.oas3": ["ApiKey", "name=\"apiKey\"", "in=\"query\""],
        "AC-21.oas3": ["ApiKey", "name=\"apiKey\"", "in=\"query\""],
        "AC-22.oas3": ["Digest realm=", "nonce="],
        "AC-25.oas3": ["ApiKey", "name=\"X-API-Key\""],
        "AC-26.oas3": ["Bearer", "Basic realm="],
    ]

    /// petmock's own expectation of the security cases, whatever Prism's answer: a 401 carries a
    /// `WWW-Authenticate` challenge, with the parts ``challenges`` lists, and no other answer
    /// does.
    static func expectChallenges(_ file: String, _ answer: RawResponse) {
        guard file.hasPrefix("security/"), !file.contains(".pc.") else { return }
        let challenge = answer.header("WWW-Authenticate")
        #expect(
            (challenge != nil) == (answer.status == 401), "\(file): \(answer.status), \(challenge ?? "no challenge")")
        let key = file.dropFirst("security/security-scheme-validation-".count).replacing(".txt", with: "")
        for part in challenges[String(key)] ?? [] {
            #expect(challenge?.contains(part) == true, "\(file): \(challenge ?? "no challenge") lacks \(part)")
        }
    }

    /// petmock's answer to the case, and how it differs from Prism's.
    static func run(_ harnessCase: PrismHarnessCase) throws -> (RawResponse?, [String]) {
        let document = Array(harnessCase.spec.utf8)
        var configuration = StubHandlerConfiguration()
        configuration.cors = harnessCase.server.cors
        var mappings: [StubMapping] = []
        if harnessCase.name.contains(".pc.") {
            // A Postman collection (the harness's `.pc.` files), as `serve --postman` serves it:
            // its problems are warnings, unless `--strict`. Prism enforces a collection's auth,
            // which `--postman-auth on` asks of petmock: the security cases run with it.
            mappings = try PostmanCollection(bytes: document, source: harnessCase.name)
                .stubs(requiringAuth: harnessCase.name.hasPrefix("security/")).mappings
        } else {
            let contract = try OpenAPIReader().read(document, source: "\(harnessCase.name).yml")
            configuration.fallback = OpenAPIResponder(
                contract: contract, dynamic: harnessCase.server.dynamic, strictResponses: harnessCase.server.errors)
        }
        var upstream: LiveHTTPServer?
        defer { upstream?.stop() }
        if harnessCase.server.upstream != nil {
            let server = try LiveHTTPServer(handler: HttpbinStandIn())
            upstream = server
            configuration.proxyUnmatched = server.baseURL
        }
        let handler = try StubHandler(
            stubsDirectory: nil, mappings: mappings, configuration: configuration,
            upstream: upstream == nil ? .transport(GeneratedStubsTests.noUpstream) : .transport(CurlTransport()))
        let command = harnessCase.command
        let answer = try handler.answer(
            command.method, command.target, headers: command.headers,
            body: String(decoding: command.body, as: UTF8.self))
        // The connection writes `Date` on every answer; curl prints no body for `-I`.
        let headers = answer.headers.fields + [(name: "Date", value: "Mon, 07 Dec 2026 10:00:00 GMT")]
        let body = command.headOnly ? "" : Self.bodyAsPrinted(answer.text)
        return (answer, harnessCase.expectation.mismatches(status: answer.status, headers: headers, body: body))
    }

    /// The body as the harness reads it from curl's output: trimmed at the end, lines joined
    /// with `\n`.
    static func bodyAsPrinted(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        var joined = lines.joined(separator: "\n")
        while let last = joined.last, last.isWhitespace { joined.removeLast() }
        return joined
    }
}
