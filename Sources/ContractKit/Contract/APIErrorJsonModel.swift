import ContractModel

/// The `{"code": 404, "message": "..."}` body the Pet API sends with an error status.
public struct APIErrorJsonModel: Codable, Sendable, Hashable, ContractModel {
    /// The status code repeated, or an application error code.
    public let code: Int?
    /// What went wrong, for people.
    public let message: String?

    /// Creates an error body.
    public init(code: Int?, message: String?) {
        self.code = code
        self.message = message
    }

    /// A client can show the status alone, so no key is indispensable.
    public static let requiredKeys: [String] = []
}
