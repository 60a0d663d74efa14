import JSONKit

extension PetAPISeed {
    /// Reads a seed file: `{"vets": [{"id", "firstName", "lastName", "title"}], "pets": [{"id",
    /// "firstName", "lastName", "vetId"}]}`; every problem names its JSON path.
    package init(json bytes: [UInt8]) throws(PetAPISeedError) {
        let root: JSONValue
        do {
            root = try JSONParser().parse(bytes)
        } catch {
            throw PetAPISeedError(path: "$", message: "not valid JSON: \(error)")
        }
        guard case .object = root else {
            throw PetAPISeedError(path: "$", message: "expected an object, found \(root.kind)")
        }
        var vets: [VetRecord] = []
        for (index, item) in try PetAPISeed.array(root["vets"], path: "$.vets").enumerated() {
            let path = "$.vets[\(index)]"
            vets.append(
                VetRecord(
                    id: try PetAPISeed.integer(item["id"], path: path + ".id"),
                    fields: VetFields(
                        firstName: try PetAPISeed.string(item["firstName"], path: path + ".firstName"),
                        lastName: try PetAPISeed.string(item["lastName"], path: path + ".lastName"),
                        title: try PetAPISeed.optionalString(item["title"], path: path + ".title"))))
        }
        var pets: [PetRecord] = []
        for (index, item) in try PetAPISeed.array(root["pets"], path: "$.pets").enumerated() {
            let path = "$.pets[\(index)]"
            pets.append(
                PetRecord(
                    id: try PetAPISeed.integer(item["id"], path: path + ".id"),
                    fields: PetFields(
                        firstName: try PetAPISeed.string(item["firstName"], path: path + ".firstName"),
                        lastName: try PetAPISeed.optionalString(item["lastName"], path: path + ".lastName"),
                        vetId: try PetAPISeed.integer(item["vetId"], path: path + ".vetId"))))
        }
        self.init(vets: vets, pets: pets)
    }

    private static func array(_ value: JSONValue?, path: String) throws(PetAPISeedError) -> [JSONValue] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw mismatch(path, "an array", value) }
        return items
    }

    private static func integer(_ value: JSONValue?, path: String) throws(PetAPISeedError) -> Int64 {
        guard case .int(let number)? = value else { throw mismatch(path, "an integer", value) }
        return number
    }

    private static func string(_ value: JSONValue?, path: String) throws(PetAPISeedError) -> String {
        guard case .string(let text)? = value else { throw mismatch(path, "a string", value) }
        return text
    }

    private static func optionalString(_ value: JSONValue?, path: String) throws(PetAPISeedError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw mismatch(path, "a string or null", value)
        }
    }

    private static func mismatch(_ path: String, _ expected: String, _ value: JSONValue?) -> PetAPISeedError {
        PetAPISeedError(path: path, message: "expected \(expected), found \(value.map { "\($0.kind)" } ?? "nothing")")
    }
}

/// A seed file that cannot be read, with the JSON path of the problem.
package struct PetAPISeedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the file, as a JSON path (`$.pets[2].vetId`).
    package let path: String
    /// What was expected and found.
    package let message: String

    package var description: String { "\(path): \(message)" }
}
