import JSONKit
import MockEngine
import StubFormat

extension DocumentStubSet {
    /// The variants of the document's answers (`petmock variants --openapi`): its named
    /// examples as file variants, the generated forms, and the JSON fields of each operation's
    /// answer for each documented status.
    package func variantCatalog(active: String? = nil) -> VariantCatalog {
        let sources = variantCatalogSources()
        return VariantCatalog(mappings: sources.mappings, active: active, operations: sources.operations)
    }

    /// The mappings and operation fields ``variantCatalog(active:)`` lists.
    package func variantCatalogSources() -> (mappings: [StubMapping], operations: [VariantCatalog.OperationFields]) {
        var mappings: [StubMapping] = []
        var operations: [VariantCatalog.OperationFields] = []
        for stub in stubs {
            let body = try? JSONValue(parsing: stub.body)
            var mapping = stub.mapping
            mapping.response.body = body.map(ResponseBody.json) ?? .none
            mappings.append(mapping)
            if stub.example == nil {
                operations.append(.init(operation: stub.operation, status: stub.status, body: body))
            }
        }
        return (mappings, operations)
    }
}
