import APISchema
import JSONKit
import OpenAPIMock
import Testing

/// Which operations are CRUD-shaped, inferred from the document once.
@Suite struct ResourceModelTests {
    static let object = Schema(
        types: [.object], properties: [SchemaProperty(name: "id", schema: Schema(types: [.integer]))])

    static func json(_ schema: Schema) -> ContractResponse {
        ContractResponse(status: "200", description: "ok", schema: schema)
    }

    static func body(_ schema: Schema = object, _ type: String = "application/json") -> ContractRequestBody {
        ContractRequestBody(required: true, content: [ContractMediaType(mediaType: type, schema: schema)])
    }

    static func roles(_ operations: [ContractOperation]) -> [String] {
        let model = ResourceModel(contract: Contract(title: "t", version: "1", operations: operations))
        return operations.compactMap { operation in
            model.role(of: operation.name).map { "\(operation.name) \($0.role.rawValue) \($0.collection.path)" }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var operations: [ContractOperation]
        var roles: [String]
        var testDescription: String { name }
    }

    static let item = Schema(
        types: [.object], properties: [SchemaProperty(name: "id", schema: Schema(types: [.integer]))])
    static let list = Schema(types: [.array], items: item)

    static let cases: [Case] = [
        Case(
            name: "a flat collection",
            operations: [
                ContractOperation(method: .get, path: "/things", responses: [json(list)]),
                ContractOperation(method: .post, path: "/things", responses: [json(item)], requestBody: body()),
                ContractOperation(method: .get, path: "/things/{id}", responses: [json(item)]),
                ContractOperation(method: .put, path: "/things/{id}", responses: [json(item)], requestBody: body()),
                ContractOperation(method: .patch, path: "/things/{id}", responses: [json(item)], requestBody: body()),
                ContractOperation(method: .delete, path: "/things/{id}"),
            ],
            roles: [
                "GET /things list /things", "POST /things create /things", "GET /things/{id} read /things",
                "PUT /things/{id} replace /things", "PATCH /things/{id} patch /things",
                "DELETE /things/{id} delete /things",
            ]),
        Case(
            name: "a nested collection",
            operations: [
                ContractOperation(method: .post, path: "/users/{userId}/orders", requestBody: body()),
                ContractOperation(method: .get, path: "/users/{userId}/orders/{orderId}", responses: [json(item)]),
            ],
            roles: [
                "POST /users/{userId}/orders create /users/{userId}/orders",
                "GET /users/{userId}/orders/{orderId} read /users/{userId}/orders",
            ]),
        Case(
            name: "no item path: not a collection",
            operations: [
                ContractOperation(method: .get, path: "/things", responses: [json(list)]),
                ContractOperation(method: .post, path: "/things", requestBody: body()),
            ],
            roles: []),
        Case(
            name: "an action and a list with no array are not CRUD",
            operations: [
                ContractOperation(method: .get, path: "/things", responses: [json(item)]),
                ContractOperation(method: .post, path: "/things/{id}/archive", requestBody: body()),
                ContractOperation(method: .get, path: "/things/{id}", responses: [json(item)]),
            ],
            roles: ["GET /things/{id} read /things"]),
        Case(
            name: "a body that is not JSON, a body that is not an object",
            operations: [
                ContractOperation(method: .post, path: "/files", requestBody: body(object, "application/octet-stream")),
                ContractOperation(method: .put, path: "/files/{name}", requestBody: body(Schema(types: [.string]))),
                ContractOperation(method: .delete, path: "/files/{name}"),
            ],
            roles: []),
        Case(
            name: "a composite segment is no id",
            operations: [
                ContractOperation(method: .post, path: "/files", requestBody: body()),
                ContractOperation(method: .get, path: "/files/{name}.{ext}", responses: [json(item)]),
            ],
            roles: []),
    ]

    @Test(arguments: cases)
    func theRolesAreInferred(_ test: Case) {
        #expect(Self.roles(test.operations) == test.roles)
    }

    struct IDCase: CustomTestStringConvertible, Sendable {
        var property: Schema?
        var parameter: Schema
        var kind: ResourceModel.IDKind
        var idProperty: String?
        var testDescription: String { "\(property?.typeText ?? "none") \(parameter.typeText) -> \(kind)" }
    }

    static let idCases: [IDCase] = [
        IDCase(
            property: Schema(types: [.integer]), parameter: Schema(types: [.string]), kind: .integer, idProperty: "id"),
        IDCase(
            property: Schema(types: [.string], format: "uuid"), parameter: Schema(types: [.string]), kind: .uuid,
            idProperty: "id"),
        IDCase(
            property: Schema(types: [.string]), parameter: Schema(types: [.integer]), kind: .string, idProperty: "id"),
        IDCase(property: nil, parameter: Schema(types: [.integer]), kind: .integer, idProperty: nil),
        IDCase(property: nil, parameter: Schema(types: [.string], format: "uuid"), kind: .uuid, idProperty: nil),
    ]

    @Test(arguments: idCases)
    func theIDIsReadFromTheSchemas(_ test: IDCase) throws {
        var properties = [SchemaProperty(name: "name", schema: Schema(types: [.string]))]
        if let property = test.property { properties.insert(SchemaProperty(name: "id", schema: property), at: 0) }
        let resource = Schema(types: [.object], properties: properties)
        let model = ResourceModel(
            contract: Contract(
                title: "t", version: "1",
                operations: [
                    ContractOperation(
                        method: .post, path: "/things", responses: [Self.json(resource)],
                        requestBody: Self.body(resource)),
                    ContractOperation(
                        method: .get, path: "/things/{thingId}",
                        parameters: [ContractParameter(name: "thingId", schema: test.parameter)],
                        responses: [Self.json(resource)]),
                ]))
        let collection = try #require(model.collections.first)
        #expect(collection.idKind == test.kind)
        #expect(collection.idProperty == test.idProperty)
        #expect(collection.idParameter == "thingId")
    }
}
