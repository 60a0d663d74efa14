import JSONKit

extension Admin {
    /// The operations the fallback source answers (an OpenAPI document's), in its order; empty
    /// when there is none.
    public func documentOperations() -> [DocumentOperation] {
        engine.fallback?.operations ?? []
    }
}
