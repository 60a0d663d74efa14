import APISchema
import ContractKit
import JSONKit

/// A one-operation OpenAPI document around a response schema, read by the real reader, for
/// tests that generate bodies.
struct SchemaDocument {
    let contract: Contract
    let schema: Schema

    /// Reads `schema` (JSON text) as `GET /x`'s 200 response, with `components` beside it.
    init(_ schema: String, components: String = "{}", version: String = "3.1.0") throws {
        let text = """
            {"openapi": "\(version)", "info": {"title": "t", "version": "1"},
             "paths": {"/x": {"get": {"responses": {"200": {"description": "ok",
               "content": {"application/json": {"schema": \(schema)}}}}}}},
             "components": {"schemas": \(components)}}
            """
        contract = try OpenAPIReader().read(Array(text.utf8), source: "test.json")
        guard let found = contract.operations.first?.responses.first?.schema else { throw Missing() }
        self.schema = found
    }

    struct Missing: Error {}
}
