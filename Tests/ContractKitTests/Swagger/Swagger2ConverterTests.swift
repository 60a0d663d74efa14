import APISchema
import ContractKit
import JSONKit
import Testing

/// Each Swagger 2.0 construct as a small document: what the converter makes of it in 3.0, and
/// what the reader then makes of that.
@Suite struct Swagger2ConverterTests {
    /// A 2.0 document from a YAML body (`paths` and more), with `swagger` and `info` added.
    static func document(_ body: String) throws -> JSONValue {
        let text = "swagger: '2.0'\ninfo: {title: t, version: '1'}\n" + body
        return try OpenAPIReader.document(Array(text.utf8), source: "t.yaml")
    }

    static func convert(_ body: String) throws -> Swagger2Converter.Conversion {
        try Swagger2Converter().convert(try document(body), source: "t.yaml")
    }

    static func read(_ body: String) throws -> Contract {
        try OpenAPIReader().read(try document(body), source: "t.yaml")
    }

    /// The value at a `/`-separated path of keys (array indexes as numbers).
    static func at(_ value: JSONValue, _ path: String) -> JSONValue? {
        var current: JSONValue? = value
        for key in path.split(separator: "/") {
            switch current {
            case .object(let object)?: current = object[String(key)]
            case .array(let elements)?:
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    @Test func definitionsBecomeSchemasAndTheirReferencesFollow() throws {
        let converted = try Self.convert(
            """
            paths:
              /pets:
                get:
                  responses:
                    '200': {description: ok, schema: {type: array, items: {$ref: '#/definitions/Pet'}}}
            definitions:
              Pet: {type: object, properties: {tag: {$ref: '#/definitions/Tag'}}}
              Tag: {type: string, x-nullable: true}
            """
        ).document
        #expect(Self.at(converted, "openapi") == "3.0.3")
        #expect(Self.at(converted, "components/schemas/Pet/properties/tag/$ref") == "#/components/schemas/Tag")
        #expect(Self.at(converted, "components/schemas/Tag") == (try Self.json(#"{"type":"string","nullable":true}"#)))
        let content = Self.at(converted, "paths")?["/pets"]?["get"]?["responses"]?["200"]?["content"]
        #expect(content?["application/json"]?["schema"]?["items"]?["$ref"] == "#/components/schemas/Pet")
    }

    @Test func sharedParametersAndResponsesBecomeComponents() throws {
        let converted = try Self.convert(
            """
            paths:
              /pets/{id}:
                get:
                  parameters: [{$ref: '#/parameters/Id'}, {$ref: '#/parameters/Limit'}, {name: q, in: query, type: string, x-nullable: true}]
                  responses: {'404': {$ref: '#/responses/NotFound'}}
            parameters:
              Id: {name: id, in: path, required: true, type: integer, format: int64}
              Limit: {name: limit, in: query, type: integer, maximum: 100, default: 20}
            responses:
              NotFound: {description: gone, schema: {type: string}}
            """
        ).document
        #expect(
            Self.at(converted, "components/parameters/Id")
                == (try Self.json(
                    #"{"name":"id","in":"path","required":true,"schema":{"type":"integer","format":"int64"}}"#)))
        #expect(Self.at(converted, "components/parameters/Limit/schema/maximum") == 100)
        #expect(Self.at(converted, "components/parameters/Limit/schema/default") == 20)
        let operation = Self.at(converted, "paths")?["/pets/{id}"]?["get"]
        #expect(operation?["parameters"]?[0]?["$ref"] == "#/components/parameters/Id")
        #expect(operation?["parameters"]?[2]?["schema"] == (try Self.json(#"{"type":"string","nullable":true}"#)))
        #expect(operation?["responses"]?["404"]?["$ref"] == "#/components/responses/NotFound")
        #expect(
            Self.at(converted, "components/responses/NotFound/content")?["application/json"]?["schema"]?["type"]
                == "string")
        let contract = try OpenAPIReader().read(converted, source: "t.json")
        #expect(contract.operation(named: "GET /pets/{id}")?.parameters.map(\.name) == ["id", "limit", "q"])
    }

    @Test func aBodyParameterBecomesTheRequestBodyInEachConsumedMediaType() throws {
        let converted = try Self.convert(
            """
            consumes: [application/json]
            paths:
              /pets:
                post:
                  consumes: [application/json, application/xml]
                  parameters: [{name: pet, in: body, required: true, description: the pet, schema: {$ref: '#/definitions/Pet'}}]
                  responses: {'201': {description: made}}
                put:
                  parameters: [{name: pet, in: body, schema: {type: object}}]
                  responses: {'200': {description: ok}}
            definitions: {Pet: {type: object}}
            """
        ).document
        let post = Self.at(converted, "paths")?["/pets"]?["post"]
        #expect(post?["parameters"] == nil)
        #expect(post?["requestBody"]?["required"] == true)
        #expect(post?["requestBody"]?["description"] == "the pet")
        let content = post?["requestBody"]?["content"]
        #expect(content?.objectValue?.keys == ["application/json", "application/xml"])
        #expect(content?["application/xml"]?["schema"]?["$ref"] == "#/components/schemas/Pet")
        let put = Self.at(converted, "paths")?["/pets"]?["put"]
        #expect(put?["requestBody"]?["content"]?.objectValue?.keys == ["application/json"])
        let contract = try OpenAPIReader().read(converted, source: "t.json")
        #expect(contract.operation(named: "POST /pets")?.requestBody?.required == true)
    }

    @Test func formParametersBecomeAnObjectBodyAndFilesBinaryStrings() throws {
        let converted = try Self.convert(
            """
            paths:
              /upload:
                post:
                  consumes: [multipart/form-data]
                  parameters:
                    - {name: file, in: formData, type: file, required: true, description: the file}
                    - {name: note, in: formData, type: string}
                  responses: {'200': {description: ok}}
              /login:
                post:
                  parameters:
                    - {name: user, in: formData, type: string, required: true}
                    - {name: tags, in: formData, type: array, items: {type: string}}
                  responses: {'200': {description: ok}}
            """
        ).document
        let upload = Self.at(converted, "paths")?["/upload"]?["post"]?["requestBody"]
        let schema = upload?["content"]?["multipart/form-data"]?["schema"]
        #expect(schema?["type"] == "object")
        #expect(schema?["required"] == ["file"])
        #expect(
            schema?["properties"]?["file"]
                == (try Self.json(#"{"type":"string","format":"binary","description":"the file"}"#)))
        #expect(upload?["required"] == true)
        let login = Self.at(converted, "paths")?["/login"]?["post"]?["requestBody"]?["content"]
        #expect(login?.objectValue?.keys == ["application/x-www-form-urlencoded"])
        #expect(
            login?["application/x-www-form-urlencoded"]?["encoding"]?["tags"]
                == (try Self.json(#"{"style":"form","explode":false}"#)))
        let contract = try OpenAPIReader().read(converted, source: "t.json")
        #expect(
            contract.operation(named: "POST /upload")?.requestBody?.content.map(\.mediaType) == ["multipart/form-data"])
    }

    @Test func producesGivesEachResponseItsMediaTypesAndExamplesTheirContent() throws {
        let converted = try Self.convert(
            """
            produces: [application/json]
            paths:
              /a:
                get:
                  produces: [application/json, text/plain]
                  responses:
                    '200':
                      description: ok
                      schema: {type: object, properties: {id: {type: integer}}}
                      examples: {application/json: {id: 7}}
                      headers: {X-Rate: {type: integer, description: left}}
              /b:
                get:
                  responses: {'200': {description: ok, schema: {type: string}}}
            """
        ).document
        let response = Self.at(converted, "paths")?["/a"]?["get"]?["responses"]?["200"]
        #expect(response?["content"]?.objectValue?.keys == ["application/json", "text/plain"])
        #expect(response?["content"]?["application/json"]?["example"] == (try Self.json(#"{"id":7}"#)))
        #expect(
            response?["headers"]?["X-Rate"] == (try Self.json(#"{"description":"left","schema":{"type":"integer"}}"#)))
        let b = Self.at(converted, "paths")?["/b"]?["get"]?["responses"]?["200"]?["content"]
        #expect(b?.objectValue?.keys == ["application/json"])
        let contract = try OpenAPIReader().read(converted, source: "t.json")
        #expect(contract.operation(named: "GET /a")?.response(for: 200)?.examples == [try Self.json(#"{"id":7}"#)])
    }

    /// A string form field may be empty only with `allowEmptyValue: true` (2.0's default is
    /// false): the property says `minLength: 1` unless it says a length of its own.
    @Test func aFormFieldWithoutAllowEmptyValueMayNotBeEmpty() throws {
        let converted = try Self.convert(
            """
            paths:
              /a:
                post:
                  consumes: [application/x-www-form-urlencoded]
                  parameters:
                    - {in: formData, name: id, type: string}
                    - {in: formData, name: note, type: string, allowEmptyValue: true}
                    - {in: formData, name: code, type: string, minLength: 3}
                    - {in: formData, name: count, type: integer}
                  responses: {'200': {description: ok}}
            """
        ).document
        let properties = Self.at(
            converted, "paths")?["/a"]?["post"]?["requestBody"]?["content"]?["application/x-www-form-urlencoded"]?[
                "schema"]?["properties"]
        #expect(properties?["id"] == (try Self.json(#"{"type":"string","minLength":1}"#)))
        #expect(properties?["note"] == (try Self.json(#"{"type":"string"}"#)))
        #expect(properties?["code"] == (try Self.json(#"{"type":"string","minLength":3}"#)))
        #expect(properties?["count"] == (try Self.json(#"{"type":"integer"}"#)))
    }

    /// An example keyed by a media range is the example of each produced type it covers that
    /// has none of its own; a range that covers none keeps its key.
    @Test func anExampleUnderAMediaRangeGoesToTheProducedTypesItCovers() throws {
        let converted = try Self.convert(
            """
            paths:
              /a:
                get:
                  produces: [text/plain, application/json]
                  responses:
                    '200': {description: ok, schema: {type: string}, examples: {'*/*': hello, application/json: '"j"'}}
              /b:
                get:
                  produces: [application/json]
                  responses:
                    '200': {description: ok, schema: {type: string}, examples: {'text/*': hi}}
            """
        ).document
        let a = Self.at(converted, "paths")?["/a"]?["get"]?["responses"]?["200"]?["content"]
        #expect(a?.objectValue?.keys == ["text/plain", "application/json"])
        #expect(a?["text/plain"]?["example"] == "hello")
        #expect(a?["application/json"]?["example"] == "\"j\"")
        let b = Self.at(converted, "paths")?["/b"]?["get"]?["responses"]?["200"]?["content"]
        #expect(b?.objectValue?.keys == ["application/json", "text/*"])
        #expect(b?["text/*"]?["example"] == "hi")
    }

    @Test(arguments: [
        (
            "host: api.example.com\nbasePath: /v1\nschemes: [https, http]",
            #"[{"url":"https://api.example.com/v1"},{"url":"http://api.example.com/v1"}]"#
        ),
        ("host: api.example.com", #"[{"url":"https://api.example.com"}]"#),
        ("basePath: /api/", #"[{"url":"/api"}]"#),
    ])
    func hostBasePathAndSchemesBecomeServers(root: String, servers: String) throws {
        let converted = try Self.convert(root + "\npaths: {}").document
        #expect(Self.at(converted, "servers") == (try Self.json(servers)))
        #expect(Self.at(try Self.convert("paths: {}").document, "servers") == nil)
    }

    @Test(arguments: [
        ("query", "csv", #"{"style":"form","explode":false}"#),
        ("query", nil, #"{"style":"form","explode":false}"#),
        ("path", "csv", #"{"style":"simple","explode":false}"#),
        ("header", "csv", #"{"style":"simple","explode":false}"#),
        ("query", "ssv", #"{"style":"spaceDelimited","explode":false}"#),
        ("query", "pipes", #"{"style":"pipeDelimited","explode":false}"#),
        ("query", "multi", #"{"style":"form","explode":true}"#),
        ("query", "tsv", #"{"style":"tabDelimited","explode":false}"#),
        ("path", "tsv", #"{"style":"tabDelimited","explode":false}"#),
        ("header", "tsv", #"{"style":"tabDelimited","explode":false}"#),
    ])
    func collectionFormatsBecomeStyles(location: String, format: String?, style: String) throws {
        let formatText = format.map { ", collectionFormat: \($0)" } ?? ""
        let converted = try Self.convert(
            """
            paths:
              /a/{ids}:
                get:
                  parameters: [{name: ids, in: \(location), required: true, type: array, items: {type: integer}\(formatText)}]
                  responses: {'200': {description: ok}}
            """)
        let parameter = try #require(Self.at(converted.document, "paths")?["/a/{ids}"]?["get"]?["parameters"]?[0])
        let expected = try #require(try Self.json(style).objectValue)
        for member in expected.members { #expect(parameter[member.key] == member.value, "\(member.key)") }
        #expect(parameter["schema"] == (try Self.json(#"{"type":"array","items":{"type":"integer"}}"#)))
        #expect(converted.warnings.isEmpty)
    }

    @Test func tsvIsReadAsTabDelimitedAndWrittenBack() throws {
        let contract = try Self.read(
            """
            paths:
              /a:
                post:
                  consumes: [application/x-www-form-urlencoded]
                  parameters:
                  - {name: ids, in: query, type: array, items: {type: integer}, collectionFormat: tsv}
                  - {name: tags, in: formData, type: array, items: {type: string}, collectionFormat: tsv}
                  responses: {'200': {description: ok}}
            """)
        #expect(contract.ignoredKeywords.isEmpty, "\(contract.ignoredKeywords)")
        let operation = try #require(contract.operations.first)
        let parameter = try #require(operation.parameters.first)
        #expect(parameter.style == ContractParameter.tabDelimited)
        #expect(parameter.explode == false)
        #expect(parameter.schema.types == [.array])
        let encoding = operation.requestBody?.content.first?.encoding["tags"]
        #expect(encoding?.style == ContractParameter.tabDelimited)
        #expect(encoding?.explode == false)
        let written = OpenAPIWriter().document(contract)
        let reread = try OpenAPIReader().read(written, source: "w.json")
        #expect(reread.operations.first?.parameters.first?.style == ContractParameter.tabDelimited)
        #expect(reread.operations.first?.requestBody?.content.first?.encoding["tags"]?.style == "tabDelimited")
    }

    @Test(arguments: [
        (
            "host: api.example.com\nbasePath: /v1", "[http, wss]",
            #"["http://api.example.com/v1","wss://api.example.com/v1"]"#
        ),
        ("host: api.example.com\nschemes: [https]", "[http]", #"["http://api.example.com"]"#),
        ("host: api.example.com\nschemes: [https]", nil, "[]"),
        ("basePath: /v1", "[http]", "[]"),
    ])
    func operationSchemesBecomeTheOperationsServers(root: String, schemes: String?, servers: String) throws {
        let schemesText = schemes.map { "\n      schemes: \($0)" } ?? ""
        let contract = try Self.read(
            root + """

                paths:
                  /a:
                    get:\(schemesText)
                      responses: {'200': {description: ok}}
                """)
        #expect(contract.ignoredKeywords.isEmpty, "\(contract.ignoredKeywords)")
        let operation = try #require(contract.operations.first)
        #expect(JSONValue.array(operation.servers.map(JSONValue.string)) == (try Self.json(servers)))
        let reread = try OpenAPIReader().read(OpenAPIWriter().document(contract), source: "w.json")
        #expect(reread.operations.first?.servers == operation.servers)
        #expect(reread.servers == contract.servers)
    }

    @Test func anUnknownSchemeIsAnErrorAtItsPointer() throws {
        #expect(
            throws: ContractError.invalidContract(
                file: "t.yaml", path: "$.paths['/a'].get.schemes[0]", expected: "a scheme http, https, ws or wss",
                found: "string 'ftp'")
        ) {
            try Self.read(
                """
                host: a.example
                paths:
                  /a:
                    get:
                      schemes: [ftp]
                      responses: {'200': {description: ok}}
                """)
        }
    }

    @Test func securityDefinitionsBecomeSecuritySchemes() throws {
        let converted = try Self.convert(
            """
            paths: {}
            security: [{key: []}]
            securityDefinitions:
              basic: {type: basic, description: who}
              key: {type: apiKey, name: X-Key, in: header}
              implicit: {type: oauth2, flow: implicit, authorizationUrl: 'https://a.example/auth', scopes: {read: reads}}
              app: {type: oauth2, flow: application, tokenUrl: 'https://a.example/token', scopes: {}}
              code: {type: oauth2, flow: accessCode, authorizationUrl: 'https://a/a', tokenUrl: 'https://a/t', scopes: {}}
            """
        ).document
        let schemes = Self.at(converted, "components/securitySchemes")
        #expect(schemes?["basic"] == (try Self.json(#"{"type":"http","scheme":"basic","description":"who"}"#)))
        #expect(schemes?["key"] == (try Self.json(#"{"type":"apiKey","name":"X-Key","in":"header"}"#)))
        #expect(schemes?["implicit"]?["flows"]?["implicit"]?["scopes"]?["read"] == "reads")
        #expect(schemes?["app"]?["flows"]?["clientCredentials"]?["tokenUrl"] == "https://a.example/token")
        #expect(schemes?["code"]?["flows"]?["authorizationCode"]?["tokenUrl"] == "https://a/t")
        #expect(Self.at(converted, "security") == (try Self.json(#"[{"key":[]}]"#)))
        let contract = try OpenAPIReader().read(converted, source: "t.json")
        #expect(contract.securitySchemes.count == 5)
    }

    @Test func whatIsNotConvertedIsAWarningWithItsPointer() throws {
        let conversion = try Self.convert(
            """
            paths:
              /a:
                get:
                  parameters: [{name: m, in: query, type: array, items: {type: array, items: {type: string}, collectionFormat: pipes}}]
                  responses: {'200': {description: ok}}
            """)
        #expect(conversion.warnings.contains { $0.contains("#/paths/~1a/get/parameters/0/items/collectionFormat") })
    }

    @Test func errorsNameThePlaceInTheSwaggerDocument() throws {
        #expect(
            throws: ContractError.unresolvedReference(
                file: "t.yaml", path: "$.paths['/a'].get.responses['200']", reference: "#/definitions/Nope")
        ) {
            try Self.read(
                """
                paths:
                  /a:
                    get:
                      responses: {'200': {description: ok, schema: {$ref: '#/definitions/Nope'}}}
                """)
        }
        do {
            _ = try Self.read(
                """
                definitions:
                  Pet: {type: object, properties: {name: {type: 7}}}
                paths: {}
                """)
            Issue.record("read")
        } catch {
            #expect("\(error)".contains("$.definitions.Pet.properties.name"), "\(error)")
        }
        do {
            _ = try Self.read(
                """
                paths:
                  /a:
                    post:
                      parameters: [{name: b, in: body, schema: {type: object, properties: {n: {type: [7]}}}}]
                      responses: {'200': {description: ok}}
                """)
            Issue.record("read")
        } catch {
            #expect("\(error)".contains("$.paths['/a'].post.parameters[0].schema.properties.n"), "\(error)")
        }
        #expect(throws: ContractError.self) { try Self.read("swagger: '3.0'\npaths: {}") }
        do {
            _ = try OpenAPIReader().read(Array("swagger: '1.2'\npaths: {}\n".utf8), source: "old.yaml")
        } catch {
            #expect("\(error)".contains("$.swagger"), "\(error)")
            #expect("\(error)".contains("'2.0'"), "\(error)")
        }
    }

    @Test func deeplyNestedSchemasAreRefusedNotRecursedWithoutEnd() throws {
        var schema = "{type: string}"
        for _ in 0..<100 { schema = "{type: array, items: \(schema)}" }
        #expect(throws: ContractError.self) { try Self.convert("paths: {}\ndefinitions: {A: \(schema)}") }
    }
}
