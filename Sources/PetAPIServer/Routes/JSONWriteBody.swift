import HTTPCore
import JSONKit

/// Reads and checks a JSON write body field by field, naming the field in every refusal.
struct JSONWriteBody {
    private let object: JSONObject
    private var seen: Set<String> = []

    /// Parses the body as one JSON object.
    init(_ bytes: [UInt8], headers: HTTPHeaders) throws(PetAPIError) {
        if let type = headers["Content-Type"], !type.lowercased().contains("json") {
            throw PetAPIError(
                status: .unsupportedMediaType, message: "Content-Type: expected 'application/json', found '\(type)'")
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw .badRequest("body is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw .badRequest("body: expected an object, found \(value.kind)")
        }
        self.object = object
    }

    /// A string that must be present and not blank.
    mutating func requiredString(_ key: String) throws(PetAPIError) -> String {
        guard let text = try optionalString(key, allowNull: false) else {
            throw .badRequest("\(key): expected a non-empty string, found nothing")
        }
        return text
    }

    /// A string that may be absent or null (giving nil), and is otherwise not blank.
    mutating func optionalString(_ key: String, allowNull: Bool = true) throws(PetAPIError) -> String? {
        seen.insert(key)
        switch object[key] {
        case nil: return nil
        case .null?:
            if allowNull { return nil }
            throw .badRequest("\(key): expected a non-empty string, found null")
        case .string(let text)?:
            guard !text.trimmingASCIISpaces().isEmpty else {
                throw .badRequest("\(key): expected a non-empty string, found '\(text)'")
            }
            return text
        case let other?:
            throw .badRequest("\(key): expected a string, found \(other.kind) \(excerpt(other))")
        }
    }

    /// A whole number that must be present.
    mutating func requiredInteger(_ key: String) throws(PetAPIError) -> Int64 {
        seen.insert(key)
        switch object[key] {
        case .int(let number)?: return number
        case nil: throw .badRequest("\(key): expected an integer, found nothing")
        case let other?: throw .badRequest("\(key): expected an integer, found \(other.kind) \(excerpt(other))")
        }
    }

    /// Refuses keys the resource does not have, and repeated keys.
    func rejectUnknownKeys() throws(PetAPIError) {
        if let duplicate = object.duplicateKeys.first {
            throw .badRequest("\(duplicate): given more than once")
        }
        if let unknown = object.keys.first(where: { !seen.contains($0) }) {
            let known = seen.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw .badRequest("\(unknown): unexpected field; expected only \(known)")
        }
    }

    private func excerpt(_ value: JSONValue) -> String {
        let text = value.serialized()
        // JSON text as it is: a string shows its own quotes (`"1"`), so no more are added.
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
