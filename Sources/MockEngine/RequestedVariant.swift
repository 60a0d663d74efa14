import HTTPCore

/// The variant a request is answered under: the one it asks for (`X-Petmock-Variant`,
/// `Prefer: example=`), else the server-wide one; or the status it asks for
/// (`Prefer: code=NNN`).
struct RequestedVariant {
    /// The variant in force, if any.
    var variant: Variant?
    /// The status asked for, if any.
    var status: Int?
    /// The variant's name as the request gave it, when the request chose one.
    var requested: String?

    /// What the request's headers ask for, resolved against the stubs: a refusal when they
    /// name a variant that does not exist or cannot be read.
    static func select(
        _ headers: HTTPHeaders, snapshot: StubStore.Snapshot, engine: StubEngine
    ) -> Result<RequestedVariant, StubDecisionRefusal> {
        switch VariantSelection(headers) {
        case .none:
            return .success(RequestedVariant(variant: snapshot.serverVariant, status: nil, requested: nil))
        case .named(let name):
            do {
                let variant = try engine.resolve(name, in: snapshot.index)
                return .success(RequestedVariant(variant: variant, status: nil, requested: name))
            } catch {
                return .failure(StubDecisionRefusal(.refuse(message: error.description, variant: name)))
            }
        case .status(let code):
            return .success(RequestedVariant(variant: snapshot.serverVariant, status: code, requested: nil))
        case .invalid(let message):
            return .failure(StubDecisionRefusal(.refuse(message: message, variant: nil)))
        }
    }
}

/// A decision that ends a request before matching (a `Result`'s failure needs an `Error`).
struct StubDecisionRefusal: Error {
    let decision: StubDecision

    init(_ decision: StubDecision) {
        self.decision = decision
    }
}
