import APISchema
import ContractKit
import JSONKit
import Testing

/// A document read and written back keeps its operations' media types in the order written,
/// whichever one the reader describes first.
@Suite struct OpenAPIWriterOrderTests {
    static let document = #"""
        {"openapi": "3.1.0", "info": {"title": "order", "version": "1"},
         "paths": {"/report": {"post": {
          "requestBody": {"content": {
            "text/csv": {"schema": {"type": "string"}},
            "application/json": {"schema": {"type": "object"}},
            "application/xml": {"schema": {"type": "object"}}}},
          "responses": {
           "200": {"description": "ok", "content": {
             "text/plain": {"schema": {"type": "string"}},
             "application/xml": {"schema": {"type": "object"}},
             "application/json": {"schema": {"type": "object"}},
             "text/csv": {"schema": {"type": "string"}}}},
           "201": {"description": "made", "content": {
             "application/json": {"schema": {"type": "object"}},
             "text/plain": {"schema": {"type": "string"}}}},
           "202": {"description": "taken", "content": {
             "text/plain": {"schema": {"type": "string"}}}}}}}}}
        """#

    @Test func mediaTypesKeepTheirOrder() throws {
        let contract = try OpenAPIReader().read(Array(Self.document.utf8), source: "order.json")
        let response = try #require(contract.operations.first?.response(for: 200))
        #expect(response.mediaType == "application/json")
        let written = OpenAPIWriter().document(contract)
        let post = written["paths"]?["/report"]?["post"]
        #expect(
            post?["responses"]?["200"]?["content"]?.objectValue?.keys == [
                "text/plain", "application/xml", "application/json", "text/csv",
            ])
        #expect(post?["responses"]?["201"]?["content"]?.objectValue?.keys == ["application/json", "text/plain"])
        #expect(post?["responses"]?["202"]?["content"]?.objectValue?.keys == ["text/plain"])
        #expect(
            post?["requestBody"]?["content"]?.objectValue?.keys == ["text/csv", "application/json", "application/xml"])
        let again = try OpenAPIReader().read(written, source: "written.json")
        #expect(again == contract)
        #expect(OpenAPIWriter().text(again) == OpenAPIWriter().text(contract))
    }
}
