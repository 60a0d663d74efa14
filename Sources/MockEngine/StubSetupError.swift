import StubFormat

/// Why a ``StubHandler`` could not be made.
public enum StubSetupError: Error, Sendable, CustomStringConvertible {
    /// The stubs could not be loaded (or, strictly, had problems).
    case load(StubLoadError)
    /// The configured variant does not exist.
    case variant(VariantError)
    /// The live API to proxy unmatched requests to is not a valid URL.
    case proxy(RecordingError)

    public var description: String {
        switch self {
        case .load(let error): "\(error)"
        case .variant(let error): "\(error)"
        case .proxy(let error): "Cannot proxy unmatched requests: \(error)"
        }
    }
}
