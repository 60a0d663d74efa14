/// A `Decodable` model that names the JSON keys the app cannot do without.
///
/// `petcontract generate` reflects the model's `Decodable` conformance to find every key
/// and type it reads; the keys listed here become `required` in the contract, the rest
/// are optional. This module has no dependencies, so an app's model module can adopt it
/// without pulling in the contract engine.
///
/// ```swift
/// struct PetJsonModel: Codable, ContractDecodable {
///     let firstName: String?
///     let vetId: Int?
///     static let requiredKeys = ["firstName", "vetId"]
/// }
/// ```
public protocol ContractDecodable: Decodable {
    /// The JSON keys (as encoded, after any `CodingKeys` renaming) the app needs.
    static var requiredKeys: [String] { get }
}
