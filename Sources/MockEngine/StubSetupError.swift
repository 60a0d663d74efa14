import APISchema
import StubFormat

/// Why a ``StubHandler`` could not be made.
public enum StubSetupError: Error, Sendable, CustomStringConvertible {
    /// The stubs could not be loaded (or, strictly, had problems).
    case load(StubLoadError)
    /// The configured variant does not exist.
    case variant(VariantError)
    /// The live API to proxy unmatched requests to is not a valid URL.
    case proxy(RecordingError)
    /// The OpenAPI document to answer from could not be read: not there, not JSON, or not
    /// an OpenAPI document (the reader's error says where and what).
    case document(ContractError)
    /// The OpenAPI document is YAML, which only the command-line tools read (libyaml is not
    /// in the iOS SDK); the message says how to convert it once.
    case documentIsYAML(path: String)

    public var description: String {
        switch self {
        case .load(let error): "\(error)"
        case .variant(let error): "\(error)"
        case .proxy(let error): "Cannot proxy unmatched requests: \(error)"
        case .document(let error): "Cannot answer from the OpenAPI document: \(error)"
        case .documentIsYAML(let path):
            "'\(path)' is YAML; in process, OpenAPI documents are read as JSON. Convert it once: "
                + "petmock convert --openapi '\(path)' --out DOCUMENT.json"
        }
    }
}
