import APISchema
import ContractKit
import ContractModel
import Foundation
import JSONKit
import PetModels
import Testing

@Suite struct SchemaReflectorTests {
    enum Species: String, Codable, CaseIterable { case dog, cat }
    enum Size: Int, Codable, CaseIterable { case small = 1, large = 2 }

    struct Owner: Codable, ContractDecodable {
        let name: String
        let email: URL?
        static let requiredKeys = ["name"]
    }

    struct Animal: Codable, ContractDecodable {
        let id: UUID
        let species: Species
        let size: Size?
        let born: Date?
        let weight: Double?
        let tags: [String]
        let owner: Owner?
        let friends: [Animal]?
        let scores: [String: Int]?
        let nickname: String?
        let displayName: String?

        enum CodingKeys: String, CodingKey {
            case id, species, size, born, weight, tags, owner, friends, scores, nickname
            case displayName = "display_name"
        }

        static let requiredKeys = ["species", "nickname"]
    }

    @Test func petModelBecomesAnObjectWithRequiredKeysAndSwiftProperties() throws {
        let reflector = SchemaReflector()
        let schema = try reflector.schema(for: [PetJsonModel].self)
        #expect(schema.types == [.array])
        #expect(schema.items?.reference == "#/components/schemas/PetJsonModel")
        let pet = try #require(reflector.components.first { $0.name == "PetJsonModel" }?.schema)
        #expect(pet.types == [.object])
        #expect(pet.properties.map(\.name) == ["firstName", "lastName", "vetId"])
        #expect(pet.required == ["firstName", "vetId"])
        // Required keys take no null, whatever the Swift optionality; the others are nullable.
        #expect(pet.property(named: "vetId")?.schema.types == [.integer])
        #expect(pet.property(named: "lastName")?.schema.types == [.string, .null])
        #expect(pet.property(named: "vetId")?.schema.swiftProperty == "PetJsonModel.vetId: Int?")
        #expect(pet.property(named: "firstName")?.schema.types == [.string])
        #expect(pet.swiftType == "PetJsonModel")
    }

    @Test func requiredKeysMatchTheViewModel() throws {
        // The contract's required lists and PetVetCellViewModel's failable init agree.
        let reflector = SchemaReflector()
        _ = try reflector.schema(for: PetJsonModel.self)
        _ = try reflector.schema(for: VetJsonModel.self)
        let required = Dictionary(uniqueKeysWithValues: reflector.components.map { ($0.name, $0.schema.required) })
        #expect(required["PetJsonModel"] == PetJsonModel.requiredKeys)
        #expect(required["VetJsonModel"] == VetJsonModel.requiredKeys)
    }

    @Test func nestedTypesEnumsFoundationTypesAndRenames() throws {
        let reflector = SchemaReflector()
        let schema = try reflector.schema(for: Animal.self)
        #expect(schema.reference == "#/components/schemas/Animal")
        let animal = try #require(reflector.components.first { $0.name == "Animal" }?.schema)
        func property(_ name: String) throws -> Schema {
            try #require(animal.property(named: name)?.schema)
        }
        #expect(try property("id").types == [.string])
        #expect(try property("id").format == "uuid")
        #expect(try property("species").enumValues == ["dog", "cat"])
        #expect(try property("species").types == [.string])
        #expect(try property("size").enumValues == [1, 2, nil])
        #expect(try property("size").types == [.integer, .null])
        #expect(try property("born").format == "date-time")
        #expect(try property("weight").types == [.number, .null])
        #expect(try property("tags").types == [.array])
        #expect(try property("tags").items?.types == [.string])
        #expect(try property("owner").anyOf.first?.reference == "#/components/schemas/Owner")
        #expect(try property("owner").anyOf.last?.types == [.null])
        #expect(try property("friends").items?.reference == "#/components/schemas/Animal")
        #expect(try property("scores").types == [.object, .null])
        #expect(try property("display_name").swiftProperty == "Animal.displayName: String?")
        // Non-optional properties are required anyway; requiredKeys add the rest.
        #expect(animal.required == ["id", "species", "tags", "nickname"])
        let owner = try #require(reflector.components.first { $0.name == "Owner" }?.schema)
        #expect(owner.property(named: "email")?.schema.format == "uri")
        #expect(owner.required == ["name"])
    }

    struct Broken: Decodable, ContractDecodable {
        let a: Int?
        static let requiredKeys = ["b"]
    }

    @Test func aRequiredKeyTheModelNeverReadsIsAnError() {
        #expect(throws: ContractError.requiredKeyNotDecoded(type: "Broken", key: "b")) {
            try SchemaReflector().schema(for: Broken.self)
        }
    }

    enum Opaque: String, Decodable { case one }
    struct UsesOpaque: Decodable {
        let value: Opaque
        let after: Int
    }

    @Test func aNonOptionalEnumThatIsNotCaseIterableGivesItsRawTypeAndTheKeysAfterIt() throws {
        let reflector = SchemaReflector()
        _ = try reflector.schema(for: UsesOpaque.self)
        let object = try #require(reflector.components.first { $0.name == "UsesOpaque" }?.schema)
        #expect(object.properties.map(\.name) == ["value", "after"])
        #expect(object.required == ["value", "after"])
        #expect(object.property(named: "value")?.schema.types == [.string])
        #expect(object.property(named: "value")?.schema.enumValues == nil)
    }

    struct Custom: Decodable {
        let value: Int
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = try container.decode(Int.self)
        }
    }

    @Test func singleValueTypesAreInline() throws {
        let schema = try SchemaReflector().schema(for: [Custom?].self)
        #expect(schema.types == [.array])
        #expect(schema.items?.types == [.integer, .null])
    }
}
