import HTTPCore
import JSONKit
import MockEngine
import StubFormat
import TestSupport
import Testing

@testable import StubServerKit

/// A request's several saved examples served as stubs: the first is the base, the others file
/// variants, and a request chooses among them by `Accept` (against each example's
/// `Content-Type`), by `Prefer: code=`/`example=`, or by Prism's `__code`/`__example` query
/// forms.
@Suite struct PostmanExampleChoiceTests {
    static func example(_ name: String, _ code: Int, _ type: String?, _ body: String?) -> String {
        let header = type.map { #"[{"key": "Content-Type", "value": "\#($0)"}]"# } ?? "[]"
        let text = body.map { #", "body": "\#($0)""# } ?? ""
        return #"{"name": "\#(name)", "code": \#(code), "header": \#(header)\#(text)}"#
    }

    static func server(_ examples: [String], auth: String? = nil) throws -> StubServer {
        let helper = auth.map { #""auth": \#($0), "# } ?? ""
        let collection = #"""
            {"info": {"name": "a"}, \#(helper)
             "item": [{"name": "Todos", "request": {"method": "GET", "url": {"path": ["todos"]}},
                       "response": [\#(examples.joined(separator: ","))]}]}
            """#
        let set = try PostmanCollection(bytes: Array(collection.utf8), source: "a.json").stubs(
            requiringAuth: auth != nil)
        return try makeServer(mappings: set.mappings)
    }

    static let jsonAndXML = [
        example("json", 200, "application/json", #"\"hello\""#),
        example("xml", 200, "application/xml", "<a/>"),
    ]

    @Test(arguments: [
        ("application/xml, application/json", "application/xml"),
        ("application/json;q=0.8, application/xml", "application/xml"),
        ("application/json;q=0.8, application/xml;q=0.9", "application/xml"),
        ("application/json, application/xml", "application/json"),
        ("*/*", "application/json"),
        ("text/*, application/*;q=0.5", "application/json"),
        // Accepting none of them: the first example, as without Accept.
        ("text/html", "application/json"),
    ])
    func acceptChoosesAmongTheExamples(accept: String, type: String) throws {
        let server = try Self.server(Self.jsonAndXML)
        let answer = try server.answer("/todos", headers: [("Accept", accept)])
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == type, "\(accept)")
    }

    /// A file variant not marked `byAccept` (a drift variant of a WireMock folder) answers only
    /// when named, whatever `Accept` prefers: a browser's `text/html` must not pick an HTML error.
    @Test func aVariantNotMarkedByAcceptIsNotChosenByAccept() throws {
        func mapping(_ type: String, variant: String?, byAccept: Bool) throws -> StubMapping {
            var mapping = try StubMapping(
                json:
                    #"{"request": {"urlPath": "/todos"}, "response": {"status": 200, "headers": {"Content-Type": "\#(type)"}, "body": "x"}}"#
            )
            mapping.variant = variant
            mapping.isChosenByAccept = byAccept
            return mapping
        }
        let plain = try makeServer(mappings: [
            mapping("application/json", variant: nil, byAccept: false),
            mapping("text/html", variant: "html-page", byAccept: false),
        ])
        #expect(
            try plain.answer("/todos", headers: [("Accept", "text/html")]).header("Content-Type") == "application/json")
        #expect(
            try plain.answer("/todos", headers: [("X-Petmock-Variant", "html-page")]).header("Content-Type")
                == "text/html")
        let marked = try makeServer(mappings: [
            mapping("application/json", variant: nil, byAccept: false),
            mapping("text/html", variant: "html-page", byAccept: true),
        ])
        #expect(try marked.answer("/todos", headers: [("Accept", "text/html")]).header("Content-Type") == "text/html")
    }

    @Test func theExamplesAfterTheFirstAreMarkedByAcceptAndAFlagWithoutAVariantIsRefused() throws {
        let set = try PostmanCollection(
            bytes: Array(
                #"{"info": {"name": "a"}, "item": [{"name": "T", "request": {"method": "GET", "url": {"path": ["t"]}}, "response": [\#(Self.jsonAndXML.joined(separator: ","))]}]}"#
                    .utf8), source: "a.json"
        ).stubs()
        #expect(set.mappings.map(\.isChosenByAccept) == [false, true])
        var decoder = MappingDecoder(file: "x.json")
        _ = decoder.decodeMapping(
            try JSONValue(parsing: #"{"request": {"urlPath": "/t"}, "metadata": {"byAccept": true}}"#), at: .root)
        #expect(decoder.problems.contains { $0.path == "$.metadata.byAccept" && $0.isError }, "\(decoder.problems)")
    }

    @Test func withoutAcceptTheFirstExampleAnswers() throws {
        let server = try Self.server(Self.jsonAndXML)
        #expect(try server.answer("/todos").header("Content-Type") == "application/json")
    }

    @Test func aVendorTypeIsMatchedExactly() throws {
        let server = try Self.server([
            Self.example("json", 200, "application/json", #"\"hello\""#),
            Self.example("vendor", 200, "application/vnd.api+json", #"\"vendor\""#),
        ])
        let answer = try server.answer("/todos", headers: [("Accept", "application/vnd.api+json")])
        #expect(answer.text == #""vendor""#)
    }

    @Test func anExampleWithoutContentTypeIsTakenOnlyByARangeThatAcceptsAnything() throws {
        let server = try Self.server([
            Self.example("none", 204, nil, nil), Self.example("text", 200, "text/plain", "abc"),
        ])
        #expect(try server.answer("/todos", headers: [("Accept", "text/plain")]).text == "abc")
        #expect(try server.answer("/todos", headers: [("Accept", "*/*")]).status == 204)
        #expect(try server.answer("/todos").status == 204)
    }

    @Test func acceptGivesWayToAVariantTheRequestNames() throws {
        let server = try Self.server(Self.jsonAndXML)
        let answer = try server.answer("/todos", headers: [("Accept", "application/json"), ("Prefer", "example=xml")])
        #expect(answer.header("Content-Type") == "application/xml")
    }

    /// The first example is the base, named by its example (`metadata.example`): naming it
    /// answers with the base, over what `Accept` prefers, and makes no second stub.
    @Test func namingTheFirstExampleAnswersWithTheBase() throws {
        let server = try Self.server(Self.jsonAndXML)
        let xml = [("Accept", "application/xml")]
        for asked in [("Prefer", "example=json"), ("X-Petmock-Variant", "json")] {
            let answer = try server.answer("/todos", headers: xml + [asked])
            #expect(answer.status == 200, "\(asked)")
            #expect(answer.header("Content-Type") == "application/json", "\(asked)")
        }
        #expect(try server.answer("/todos?__example=json", headers: xml).header("Content-Type") == "application/json")
        #expect(try server.answer("/todos", headers: xml).header("Content-Type") == "application/xml")
        let set = try PostmanCollection(
            bytes: Array(
                #"{"info": {"name": "a"}, "item": [{"name": "T", "request": {"method": "GET", "url": {"path": ["t"]}}, "response": [\#(Self.jsonAndXML.joined(separator: ","))]}]}"#
                    .utf8), source: "a.json"
        ).stubs()
        #expect(set.mappings.map(\.exampleName) == ["json", nil])
        #expect(set.mappings.map(\.variant) == [nil, "xml"])
        let catalog = VariantCatalog(mappings: set.mappings)
        #expect(catalog.names == ["xml"])
        #expect(catalog.baseExamples.map(\.name) == ["json"])
        #expect(catalog.description.contains("Base examples"))
        #expect(catalog.json["baseExamples"]?.arrayValue?.first?["name"] == "json")
    }

    /// A name that is one request's first example and another's later one: each request
    /// answers with its own example of that name.
    @Test func aNameThatIsOneRequestsBaseAndAnothersVariantAnswersWithEachOwnExample() throws {
        let collection = #"""
            {"info": {"name": "a"}, "item": [
              {"name": "Todos", "request": {"method": "GET", "url": {"path": ["todos"]}},
               "response": [\#(Self.example("ok", 200, "text/plain", "todo ok")),
                            \#(Self.example("created", 201, "text/plain", "todo created"))]},
              {"name": "Dones", "request": {"method": "GET", "url": {"path": ["dones"]}},
               "response": [\#(Self.example("created", 201, "text/plain", "done created")),
                            \#(Self.example("ok", 200, "text/plain", "done ok"))]}]}
            """#
        let set = try PostmanCollection(bytes: Array(collection.utf8), source: "a.json").stubs()
        #expect(set.mappings.count == 4)
        let server = try makeServer(mappings: set.mappings)
        for (path, name, text) in [
            ("/todos", "ok", "todo ok"), ("/todos", "created", "todo created"),
            ("/dones", "ok", "done ok"), ("/dones", "created", "done created"),
        ] {
            #expect(try server.answer(path, headers: [("Prefer", "example=\(name)")]).text == text, "\(path) \(name)")
            #expect(try server.answer("\(path)?__example=\(name)").text == text, "\(path) \(name)")
        }
    }

    /// Two examples of one name: the later one's variant name is made unique, so the name
    /// still asks for the first.
    @Test func aLaterExampleOfTheFirstOnesNameGetsAUniqueVariantName() throws {
        let server = try Self.server([
            Self.example("same", 200, "text/plain", "first"), Self.example("same", 200, "text/plain", "second"),
        ])
        #expect(try server.answer("/todos", headers: [("Prefer", "example=same")]).text == "first")
        #expect(try server.answer("/todos", headers: [("Prefer", "example=same-2")]).text == "second")
    }

    @Test func anUnknownNameIsRefusedNamingTheFirstExamplesToo() throws {
        let server = try Self.server(Self.statuses)
        let unknown = try server.answer("/todos", headers: [("Prefer", "example=oks")])
        #expect(unknown.status == 400)
        #expect(unknown.text.contains("did you mean 'ok'"), "\(unknown.text)")
        #expect(unknown.text.contains("metadata.example"), "\(unknown.text)")
    }

    @Test(arguments: [
        #"{"variant": "a", "example": "b"}"#, #"{"example": "a:b"}"#, #"{"example": "reset"}"#,
        #"{"example": 3}"#,
    ])
    func anExampleNameBesideAVariantOrNotAPlainWordIsRefused(metadata: String) throws {
        var decoder = MappingDecoder(file: "x.json")
        _ = decoder.decodeMapping(
            try JSONValue(parsing: #"{"request": {"urlPath": "/t"}, "response": {}, "metadata": \#(metadata)}"#),
            at: .root)
        #expect(decoder.problems.contains { $0.path == "$.metadata.example" && $0.isError }, "\(decoder.problems)")
    }

    static let statuses = [
        example("ok", 200, "application/json", #"\"ok\""#),
        example("created", 201, "application/json", #"\"even more ok\""#),
    ]

    @Test func theQueryFormsChooseAStatusOrAnExample() throws {
        let server = try Self.server(Self.statuses)
        #expect(try server.answer("/todos?__code=201").text == #""even more ok""#)
        #expect(try server.answer("/todos?__example=created").status == 201)
        #expect(try server.answer("/todos?__example=created&__code=200").status == 201)
        // The header's item wins over the query's.
        #expect(try server.answer("/todos?__code=201", headers: [("Prefer", "code=200")]).status == 200)
        #expect(try server.answer("/todos?__code=200", headers: [("Prefer", "example=created")]).status == 201)
    }

    @Test func aQueryFormAskingForWhatNoExampleHasIsRefused() throws {
        // As `Prefer` asking for it: a 400 naming what there is.
        let server = try Self.server(Self.statuses)
        let missing = try server.answer("/todos?__code=304")
        #expect(missing.status == 400)
        #expect(missing.text.contains("statuses available: 200, 201"))
        let invalid = try server.answer("/todos?__code=abc")
        #expect(invalid.status == 400)
        #expect(invalid.text.contains("__code=abc is not a status code"))
        let unknown = try server.answer("/todos?__example=nope")
        #expect(unknown.status == 400)
        #expect(unknown.text.contains("nope"))
    }

    @Test func aHEADIsAnsweredAsTheGETWithoutTheBody() throws {
        let server = try Self.server(Self.statuses)
        let answer = try server.answer("HEAD", "/todos")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.body.isEmpty)
    }

    static let apiKey =
        #"{"type": "apikey", "apikey": [{"key": "in", "value": "query"}, {"key": "key", "value": "k"}]}"#

    @Test func aRequiredAuthIsRefusedWithTheRequestsOwn401Example() throws {
        let server = try Self.server(
            [
                Self.example("ok", 200, "application/json", #"\"ok\""#),
                Self.example("no", 401, nil, #"\"unauthorized\""#),
            ],
            auth: Self.apiKey)
        let refused = try server.answer("/todos")
        #expect(refused.status == 401)
        #expect(refused.text == #""unauthorized""#)
        #expect(try server.answer("/todos?k=anything").text == #""ok""#)
    }

    @Test func withoutA401ExampleTheRefusalIsAProblemDocument() throws {
        let server = try Self.server([Self.example("ok", 200, "application/json", #"\"ok\""#)], auth: Self.apiKey)
        let refused = try server.answer("/todos")
        #expect(refused.status == 401)
        #expect(refused.header("Content-Type") == "application/problem+json")
    }

    @Test func aBasicHelperNamingNoUserAcceptsAnyWellFormedBasicCredential() throws {
        let server = try Self.server(
            [Self.example("ok", 200, "application/json", #"\"ok\""#)], auth: #"{"type": "basic"}"#)
        for credential in ["dGVzdDp0ZXN0", "YTo=", "YWI6Yw=="] {
            #expect(try server.answer("/todos", headers: [("Authorization", "Basic " + credential)]).status == 200)
        }
        for refused in ["Basic abc123", "Basic ", "Bearer dGVzdDp0ZXN0", "Basic dGVz!Dp0"] {
            let answer = try server.answer("/todos", headers: [("Authorization", refused)])
            #expect(answer.status == 401, "\(refused)")
            #expect(answer.header("WWW-Authenticate") == "Basic")
        }
    }
}
