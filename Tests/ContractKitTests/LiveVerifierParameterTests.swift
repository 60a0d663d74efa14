import APISchema
import ContractKit
import HTTPCore
import JSONKit
import Platform
import Testing

/// Where the live verifier finds parameter values (`--param`, earlier responses and links,
/// examples, enum, default), which operations it calls (selectors, `--methods`), skipped
/// operations, and the level of optional-property findings per contract source.
@Suite struct LiveVerifierParameterTests {
    final class RequestLog: Sendable {
        let requests = Locked<[String]>([])
        func append(_ text: String) { requests.withLock { $0.append(text) } }
        var all: [String] { requests.withLock { $0 } }
    }

    static let base = "http://api.test"

    /// Answers `routes[path]` (the URL after the host, query included) or `{}` with 200.
    static func transport(_ routes: [String: String] = [:]) -> (ClosureTransport, RequestLog) {
        let log = RequestLog()
        let transport = ClosureTransport { request throws(HTTPClientError) in
            let path = String(request.url.dropFirst(LiveVerifierParameterTests.base.count))
            let headers = request.headers.fields.filter { $0.name.lowercased().hasPrefix("x-") }
            log.append(
                ([request.method.rawValue + " " + path] + headers.map { "\($0.name): \($0.value)" })
                    .joined(separator: " "))
            return HTTPClientResponse(
                status: HTTPStatus(code: 200), headers: ["Content-Type": "application/json"],
                body: Array((routes[path] ?? "{}").utf8))
        }
        return (transport, log)
    }

    static func contract(_ paths: String) throws -> Contract {
        let document = #"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {"# + paths + "}}"
        return try OpenAPIReader().read(Array(document.utf8), source: "t.json")
    }

    static let ok = #""responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {}}}}}"#

    static func get(_ path: String, id: String? = nil, parameters: String) -> String {
        let operationId = id.map { #""operationId": "\#($0)", "# } ?? ""
        return #""\#(path)": {"get": {\#(operationId)"parameters": [\#(parameters)], \#(ok)}}"#
    }

    func verify(
        _ contract: Contract, routes: [String: String] = [:], values: [ParameterValue] = [],
        methods: Set<HTTPMethod> = [.get]
    ) async -> (VerificationReport, [String]) {
        let (transport, log) = Self.transport(routes)
        let verifier = LiveVerifier(
            contract: contract, transport: transport,
            configuration: .init(parameterValues: values, methods: methods))
        let report = await verifier.verify(baseURL: Self.base, contractName: "t.json")
        return (report, log.all)
    }

    @Test func eachValueSourceInOrder() async throws {
        let contract = try Self.contract(
            [
                Self.get(
                    "/all/{p}",
                    parameters:
                        #"{"name": "p", "in": "path", "required": true, "example": "own", "schema": {"type": "string", "example": "schema", "enum": ["e"], "default": "d"}}"#
                ),
                Self.get(
                    "/schema/{p}",
                    parameters:
                        #"{"name": "p", "in": "path", "required": true, "schema": {"type": "string", "example": "schema", "enum": ["e"], "default": "d"}}"#
                ),
                Self.get(
                    "/examples/{p}",
                    parameters:
                        #"{"name": "p", "in": "path", "required": true, "examples": {"one": {"value": 1}, "two": {"value": 2}}, "schema": {"type": "integer"}}"#
                ),
                Self.get(
                    "/enum/{p}",
                    parameters:
                        #"{"name": "p", "in": "path", "required": true, "schema": {"enum": ["first", "second"], "default": "second"}}"#
                ),
                Self.get(
                    "/default/{p}",
                    parameters:
                        #"{"name": "p", "in": "path", "required": true, "schema": {"type": "integer", "default": 30}}"#
                ),
                Self.get(
                    "/nothing/{p}", parameters: #"{"name": "p", "in": "path", "required": true, "schema": {}}"#),
            ].joined(separator: ", "))
        // The default survives a write and a read.
        let written = try OpenAPIReader().read(Array(OpenAPIWriter().text(contract).utf8), source: "w.json")
        #expect(
            written.operations.map { $0.parameters[0].defaultValue }
                == contract.operations.map { $0.parameters[0].defaultValue })
        #expect(contract.operation(named: "GET /default/{p}")?.parameters[0].defaultValue == 30)
        let (report, calls) = await verify(contract)
        #expect(
            calls == [
                "GET /all/own", "GET /all/schema", "GET /schema/schema", "GET /examples/1", "GET /examples/2",
                "GET /enum/first", "GET /default/30",
            ])
        #expect(report.skipped == [SkippedOperation(operation: "GET /nothing/{p}", reason: "no value for {p}")])
        #expect(report.errors.isEmpty)
        #expect(report.outcome(strict: false) == .passed, "a skipped operation fails nothing by default")
        #expect(report.outcome(strict: true) == .couldNotVerify, "under --strict the check is incomplete")
        // --param comes before all of them.
        let (_, given) = await verify(contract, values: [ParameterValue(name: "p", value: "mine")])
        #expect(given.allSatisfy { $0.hasSuffix("/mine") } && given.count == 6, "\(given)")
    }

    /// An array's or object's example is sent as its style says, each item percent-encoded and
    /// the style's separators as they are.
    @Test func structuredExamplesAreSentInTheirStyle() async throws {
        let contract = try Self.contract(
            [
                Self.get(
                    "/colors/{c}",
                    parameters:
                        #"{"name": "c", "in": "path", "required": true, "style": "matrix", "example": {"R": 100, "name": "a b"}, "schema": {"type": "object"}}"#
                ),
                Self.get(
                    "/shades/{c}",
                    parameters:
                        #"{"name": "c", "in": "path", "required": true, "style": "matrix", "explode": true, "example": {"R": 100, "G": 200}, "schema": {"type": "object"}}"#
                ),
                Self.get(
                    "/lists/{ids}",
                    parameters:
                        #"{"name": "ids", "in": "path", "required": true, "style": "label", "example": [3, 4], "schema": {"type": "array"}}"#
                        + #", {"name": "tags", "in": "query", "required": true, "style": "pipeDelimited", "explode": false, "example": ["a", "b c"], "schema": {"type": "array"}}"#
                        + #", {"name": "X-Ids", "in": "header", "style": "tabDelimited", "example": [1, 2], "schema": {"type": "array"}}"#
                ),
            ].joined(separator: ", "))
        let (_, calls) = await verify(contract, values: [ParameterValue(name: "X-Ids", value: "1\t2")])
        #expect(
            calls == [
                "GET /colors/;c=R,100,name,a%20b", "GET /shades/;R=100;G=200",
                "GET /lists/.3,4?tags=a|b%20c X-Ids: 1\t2",
            ])
    }

    /// A parameter by `$ref` (as GitHub's description writes them) whose schema, also by
    /// `$ref`, has an example, an enum and a default.
    @Test func referencedParametersAndSchemasGiveTheirValues() async throws {
        let document = #"""
            {"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
             "paths": {"/repos/{owner}": {"get": {"parameters": [{"$ref": "#/components/parameters/owner"},
               {"$ref": "#/components/parameters/direction"}], "responses": {"200": {"description": "ok"}}}}},
             "components": {
               "parameters": {
                 "owner": {"name": "owner", "in": "path", "required": true, "schema": {"type": "string", "example": "octocat"}},
                 "direction": {"name": "direction", "in": "query", "required": true, "schema": {"$ref": "#/components/schemas/Direction"}}},
               "schemas": {"Direction": {"type": "string", "enum": ["asc", "desc"], "default": "desc"}}}}
            """#
        let contract = try OpenAPIReader().read(Array(document.utf8), source: "refs.json")
        let (report, calls) = await verify(contract)
        #expect(calls == ["GET /repos/octocat?direction=asc"])
        #expect(report.skipped.isEmpty)
        #expect(contract.operations[0].parameters[1].defaultValue == "desc")
    }

    @Test func valuesFromEarlierResponsesComeBeforeExamples() async throws {
        let contract = try Self.contract(
            [
                ##""/users": {"get": {"operationId": "listUsers", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {}}}, "links": {"user": {"operationId": "getUser", "parameters": {"path.login": "$response.body#/0/login", "ignored": "$request.path.x"}}, "repos": {"operationRef": "#/paths/~1users~1{login}~1repos/get", "parameters": {"login": "$response.body#/1/login"}}}}}}}"##,
                Self.get(
                    "/users/{login}", id: "getUser",
                    parameters: #"{"name": "login", "in": "path", "required": true, "example": "ex", "schema": {}}"#),
                Self.get(
                    "/users/{login}/repos",
                    parameters: #"{"name": "login", "in": "path", "required": true, "schema": {}}"#),
            ].joined(separator: ", "))
        let user = try #require(contract.operation(named: "GET /users/{login}"))
        #expect(user.parameters[0].sources == [ParameterSource(operation: "GET /users", path: "$[0].login")])
        let (report, calls) = await verify(
            contract, routes: ["/users": #"[{"login": "octocat"}, {"login": "hubot"}]"#])
        #expect(calls == ["GET /users", "GET /users/octocat", "GET /users/hubot/repos"])
        #expect(report.skipped.isEmpty)
        // Without the list, the example stands in and the repos have no value.
        var alone = contract
        alone.operations.removeFirst()
        let (skipping, fallback) = await verify(alone)
        #expect(fallback == ["GET /users/ex"])
        #expect(skipping.skipped.map(\.operation) == ["GET /users/{login}/repos"])
    }

    static let owners = [
        Self.get(
            "/repos/{owner}/{repo}", id: "getRepo",
            parameters:
                #"{"name": "owner", "in": "path", "required": true, "schema": {}}, {"name": "repo", "in": "path", "required": true, "schema": {}}, {"name": "x-trace", "in": "header", "schema": {}}"#
        ),
        Self.get(
            "/orgs/{owner}",
            parameters:
                #"{"name": "owner", "in": "path", "required": true, "schema": {}}, {"name": "per_page", "in": "query", "schema": {"default": 30}}, {"name": "sort", "in": "query", "required": true, "schema": {"enum": ["created", "updated"]}}"#
        ),
    ].joined(separator: ", ")

    @Test func givenValuesScopedAndUnscoped() async throws {
        let contract = try Self.contract(Self.owners)
        let (report, calls) = await verify(
            contract,
            values: [
                ParameterValue(name: "owner", value: "everyone"),
                try ParameterValue(parsing: "getRepo:owner=octocat"),
                try ParameterValue(parsing: "GET /repos/{owner}/{repo}:repo=hello world"),
                try ParameterValue(parsing: "x-trace=1"),
            ])
        #expect(
            calls == [
                "GET /repos/octocat/hello%20world x-trace: 1",
                "GET /orgs/everyone?sort=created",
            ])
        #expect(report.skipped.isEmpty)
        // An optional query parameter is sent when given.
        let (_, paged) = await verify(
            contract, values: [ParameterValue(name: "owner", value: "o"), ParameterValue(name: "per_page", value: "5")])
        #expect(paged.last == "GET /orgs/o?per_page=5&sort=created")
        // Without values: skipped, every missing parameter named once.
        let (skipping, _) = await verify(contract)
        #expect(
            skipping.skipped == [
                SkippedOperation(operation: "GET /repos/{owner}/{repo}", reason: "no value for {owner}, {repo}"),
                SkippedOperation(operation: "GET /orgs/{owner}", reason: "no value for {owner}"),
            ])
        #expect(skipping.outcome(strict: false) == .passed)
        #expect(skipping.outcome(strict: true) == .couldNotVerify)
    }

    @Test func parameterValuesAreReadAndChecked() throws {
        #expect(
            try ParameterValue(parsing: "GET /repos/{owner}/{repo}:owner=a=b")
                == ParameterValue(operation: "GET /repos/{owner}/{repo}", name: "owner", value: "a=b"))
        #expect(try ParameterValue(parsing: "q=") == ParameterValue(name: "q", value: ""))
        for bad in ["owner", "=x", ":owner=x", "getRepo:=x"] {
            #expect(throws: SelectionProblem.malformedParameter(bad)) { try ParameterValue(parsing: bad) }
        }
        let contract = try Self.contract(Self.owners)
        try ParameterValue.check(
            [ParameterValue(operation: "get /orgs/{owner}", name: "sort", value: "x")], in: contract)
        let unknown = ParameterValue(name: "ownr", value: "x")
        #expect(throws: SelectionProblem.unknownParameter(unknown)) {
            try ParameterValue.check([unknown], in: contract)
        }
        #expect(SelectionProblem.unknownParameter(unknown).description.contains("'ownr'"))
        let elsewhere = ParameterValue(operation: "getRepo", name: "sort", value: "x")
        #expect(throws: SelectionProblem.unknownParameter(elsewhere)) {
            try ParameterValue.check([elsewhere], in: contract)
        }
        #expect(throws: SelectionProblem.matchesNothing(.parameter, selector: "getRepos")) {
            try ParameterValue.check([ParameterValue(operation: "getRepos", name: "owner", value: "x")], in: contract)
        }
    }

    @Test func selectorsChooseOperations() throws {
        let contract = try Self.contract(
            [
                Self.get("/repos", id: "listRepos", parameters: ""),
                Self.get("/repos/admin/keys", parameters: ""),
                Self.get("/users", id: "listUsers", parameters: ""),
                Self.get("/orgs", parameters: ""),
            ].joined(separator: ", "))
        func names(_ selection: OperationSelection) throws -> [String] {
            try selection.apply(to: contract).operations.map(\.name)
        }
        #expect(try names(OperationSelection()) == contract.operations.map(\.name))
        #expect(try names(OperationSelection(include: ["GET /repos*"])) == ["GET /repos", "GET /repos/admin/keys"])
        #expect(try names(OperationSelection(include: ["GET /repos*"], exclude: ["*/admin/*"])) == ["GET /repos"])
        #expect(try names(OperationSelection(exclude: ["list*"])) == ["GET /repos/admin/keys", "GET /orgs"])
        #expect(try names(OperationSelection(operations: ["listUsers", "get /orgs"])) == ["GET /users", "GET /orgs"])
        #expect(
            try names(OperationSelection(operations: ["listUsers"], include: ["GET /o?gs"])) == [
                "GET /users", "GET /orgs",
            ])
        for (selection, problem) in [
            (
                OperationSelection(operations: ["getUser"]),
                SelectionProblem.matchesNothing(.operation, selector: "getUser")
            ),
            (OperationSelection(include: ["POST *"]), .matchesNothing(.include, selector: "POST *")),
            (OperationSelection(exclude: ["*/nope/*"]), .matchesNothing(.exclude, selector: "*/nope/*")),
        ] {
            #expect(throws: problem) { try selection.apply(to: contract) }
        }
        #expect(OperationSelection.glob("*", matches: ""))
        #expect(!OperationSelection.glob("?", matches: ""))
        #expect(OperationSelection.glob("a*b*c", matches: "aXbYbc"))
        #expect(!OperationSelection.glob("a*b", matches: "ab/c"))
    }

    @Test func onlyTheMethodsAskedForAreCalled() async throws {
        let contract = try Self.contract(
            #""/pets": {"get": {\#(Self.ok)}, "post": {\#(Self.ok)}, "delete": {\#(Self.ok)}}"#)
        let (report, calls) = await verify(contract)
        #expect(calls == ["GET /pets"])
        #expect(report.notes.isEmpty, "\(report.notes)")
        #expect(
            report.skipped == [
                SkippedOperation(
                    operation: "POST /pets", reason: "only GET operations are verified live (see --methods)",
                    cause: .methodNotCalled),
                SkippedOperation(
                    operation: "DELETE /pets", reason: "only GET operations are verified live (see --methods)",
                    cause: .methodNotCalled),
            ])
        let (both, called) = await verify(contract, methods: [.get, .post])
        #expect(called == ["GET /pets", "POST /pets"])
        #expect(both.operations == ["GET /pets", "POST /pets"])
        #expect(
            both.skipped == [
                SkippedOperation(
                    operation: "DELETE /pets", reason: "only GET, POST operations are verified live (see --methods)",
                    cause: .methodNotCalled)
            ])
    }

    @Test func skippedOperationsAppearInEveryFormat() {
        let report = VerificationReport(
            target: "http://api.test", contract: "t.json", operations: ["GET /a"],
            skipped: [SkippedOperation(operation: "GET /repos/{owner}", reason: "no value for {owner}")])
        #expect(report.outcome(strict: false) == .passed)
        let renderer = ReportRenderer()
        #expect(
            renderer.render(report, as: .text).contains("GET /repos/{owner}: note: skipped: no value for {owner}"))
        #expect(
            renderer.render(report, as: .text).contains(
                "1 operation checked, 1 skipped, against http://api.test (contract t.json): 0 breaking, 0 warnings, 0 info, 0 errors"
            ))
        #expect(renderer.render(report, as: .json).contains(#""reason": "no value for {owner}""#))
        #expect(
            renderer.render(report, as: .github).contains(
                "::notice title=skipped::GET /repos/{owner}: skipped: no value for {owner}"))
        let junit = renderer.render(report, as: .junit)
        #expect(junit.contains(#"<skipped message="skipped: no value for {owner}"/>"#))
        #expect(junit.contains(#"skipped="1""#))
        #expect(
            renderer.render(report, as: .sarif).contains(#""ruleId" : "operation-skipped""#)
                || renderer.render(report, as: .sarif).contains(#""ruleId": "operation-skipped""#))
    }

    @Test func optionalPropertyLevelsFitTheContractsSource() throws {
        let thirdParty = try Self.contract(Self.get("/a", parameters: ""))
        #expect(MissingOptionalLevel.defaultLevel(for: thirdParty, builtIn: false) == .info)
        #expect(MissingOptionalLevel.defaultLevel(for: thirdParty, builtIn: true) == .warning)
        var generated = thirdParty
        generated.operations[0].responses[0].swiftType = "[PetJsonModel]"
        #expect(MissingOptionalLevel.defaultLevel(for: generated, builtIn: false) == .warning)
        let report = VerificationReport(
            target: "t", contract: "c",
            findings: [
                Finding(
                    id: .optionalPropertyMissing, operation: "GET /a", expected: "string", actual: "nothing",
                    message: "m"),
                Finding(
                    id: .optionalPropertyNull, operation: "GET /a", expected: "string", actual: "null", message: "m"),
                Finding(id: .propertyTypeChanged, operation: "GET /a", expected: "string", actual: "1", message: "m"),
            ])
        #expect(report.applying(missingOptional: .warning) == report)
        let info = report.applying(missingOptional: .info)
        #expect(info.findings.map(\.level) == [.info, .info, .breaking])
        let ignored = report.applying(missingOptional: .ignore)
        #expect(ignored.findings.map(\.id) == [.propertyTypeChanged])
        #expect(ignored.ignored == 2)
    }
}
