import HTTPHandlerKit
import JSONKit
import StubFormat

/// Answers the requests no stub matches: the engine's second reply source (petmock serving an
/// OpenAPI document is one). Stubs always come first.
public protocol FallbackReplySource: Sendable {
    /// The answer to a request no stub matched, with what the journal keeps of it (the
    /// operation, the request's violations); nil leaves the request unmatched (the near-miss
    /// 404, or `--proxy-unmatched`).
    func reply(to request: HTTPServerRequest) -> FallbackAnswer?

    /// With a live API behind petmock (`--proxy-unmatched`): the source's own answer to a
    /// request no stub matched (a refusal), or the request passed on with a check of the live
    /// API's answer; nil leaves it unmatched (passed on unchecked).
    func route(forwarding request: HTTPServerRequest) -> FallbackRouting?

    /// The operations the source answers, for the dashboard and the admin API, in the order
    /// it lists them.
    var operations: [DocumentOperation] { get }

    /// What the near-miss 404 says of the source for a request it left unanswered (outside
    /// its mount point): where it serves and its closest operations; nil says nothing.
    func summary(forUnanswered request: HTTPServerRequest) -> FallbackSummary?

    /// What the source adds to the variant catalog (`GET /__admin/petmock/variants`): its
    /// answers as mappings (named examples as file variants) and the JSON fields of each
    /// operation's answer.
    func variantSources() -> (mappings: [StubMapping], operations: [VariantCatalog.OperationFields])

    /// What a stateful source keeps, as `GET /__admin/petmock/state` lists it: every
    /// collection's count (nil `collection`), or one collection's resources; nil when it keeps
    /// no state, or has no such collection.
    func state(collection: String?) -> JSONValue?

    /// Forgets what a stateful source keeps, all of it or one collection, back to where it
    /// started; false when it keeps no state or has no such collection. Throws, changing
    /// nothing, when the file the state is kept in refuses the reset.
    func resetState(collection: String?) throws(StateResetError) -> Bool
}

extension FallbackReplySource {
    /// The source answers as without a live API.
    public func route(forwarding request: HTTPServerRequest) -> FallbackRouting? {
        reply(to: request).map(FallbackRouting.answer)
    }

    /// No operations to list.
    public var operations: [DocumentOperation] { [] }

    /// Nothing to say of itself.
    public func summary(forUnanswered request: HTTPServerRequest) -> FallbackSummary? { nil }

    /// No state.
    public func state(collection: String?) -> JSONValue? { nil }

    /// No state to forget.
    public func resetState(collection: String?) -> Bool { false }

    /// Nothing to add to the variant catalog.
    public func variantSources() -> (mappings: [StubMapping], operations: [VariantCatalog.OperationFields]) {
        ([], [])
    }
}
