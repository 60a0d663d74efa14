import MockEngine
import StubFormat

extension OpenAPIResponder {
    /// The document's part of the variant catalog: its answers as `petmock generate` writes
    /// them (named examples as file variants) and each operation's answer fields, made on the
    /// first call and kept (a large document's answers are many).
    public func variantSources() -> (mappings: [StubMapping], operations: [VariantCatalog.OperationFields]) {
        if let made = variantCatalogCache.withLock({ $0 }) { return made }
        let catalog = DocumentStubSet(responder: self).variantCatalogSources()
        variantCatalogCache.withLock { $0 = catalog }
        return catalog
    }
}
