import HTTPCore

/// The variant a request is answered under: the one it asks for (`X-Petmock-Variant`,
/// `Prefer: example=`, `__example=`), else the server-wide one; or the status it asks for
/// (`Prefer: code=NNN`, `__code=NNN`).
struct RequestedVariant {
    /// The variant in force, if any.
    var variant: Variant?
    /// The status asked for, if any.
    var status: Int?
    /// The variant's name as the request gave it, when the request chose one.
    var requested: String?

    /// No variant and no status.
    static let none = RequestedVariant(variant: nil, status: nil, requested: nil)

    /// How the journal names what is in force: the variant, else the status asked for.
    var label: String? { variant?.description ?? status.map { "code=\($0)" } }
}

/// The first serving stage: whether the request is recorded, else what it asks to be answered
/// under, resolved against the snapshot's stubs. A function of values: the headers, the
/// snapshot and the recording under way.
enum SelectStage {
    /// What select decided.
    enum Selection {
        /// Recording is on: the request goes to the API being recorded.
        case record(target: String, recorder: Recorder)
        /// The request is matched under this variant or status.
        case serve(RequestedVariant)
        /// The headers ask for what no stub can give (a variant that does not exist or cannot
        /// be read): the refusal, unless the document answers. `documentMayAnswer`: the name
        /// came from `Prefer: example=`, which names the document's examples as well.
        case refuse(StubDecision, documentMayAnswer: Bool)
    }

    @inline(__always) static func select(
        _ headers: HTTPHeaders, query: [(name: String, value: String)], snapshot: StubStore.Snapshot,
        recording: (target: String, recorder: Recorder)?
    ) -> Selection {
        if let recording { return .record(target: recording.target, recorder: recording.recorder) }
        switch VariantSelection(headers, query: query) {
        case .none:
            return .serve(RequestedVariant(variant: snapshot.serverVariant, status: nil, requested: nil))
        case .named(let name):
            do {
                let variant = try resolve(name, in: snapshot.index)
                return .serve(RequestedVariant(variant: variant, status: nil, requested: name))
            } catch {
                return .refuse(
                    .refuse(RequestProblem(.unknownVariant, requested: name, message: error.description)),
                    documentMayAnswer: !names(headers))
            }
        case .status(let code):
            return .serve(RequestedVariant(variant: snapshot.serverVariant, status: code, requested: nil))
        case .invalid(let message):
            return .refuse(
                .refuse(RequestProblem(.invalidPreference, requested: nil, message: message)),
                documentMayAnswer: !names(headers))
        }
    }

    /// Whether the request names its variant with `X-Petmock-Variant` (which names stubs'
    /// variants only).
    private static func names(_ headers: HTTPHeaders) -> Bool {
        headers.first(name: "X-Petmock-Variant") != nil
    }

    /// Resolves a variant name against the stubs: a generated form, a file variant that
    /// exists, or a base stub's example name (`metadata.example`, a Postman request's first
    /// example), which the stubs that have no variant of that name answer under as their base.
    static func resolve(_ name: String, in index: StubIndex) throws(VariantError) -> Variant {
        let variant: Variant
        do {
            variant = try Variant(name)
        } catch {
            throw VariantError(name: name, reason: error.reason, knownVariants: index.askableNames)
        }
        if case .named(let named) = variant, index.variants[named] == nil, !index.exampleNames.contains(named) {
            let reason =
                index.exampleNames.isEmpty
                ? "no mapping has this metadata.variant" : "no mapping has this metadata.variant or metadata.example"
            throw VariantError(name: name, reason: reason, knownVariants: index.askableNames)
        }
        return variant
    }
}
