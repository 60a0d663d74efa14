import PetAPIServer
import Testing

/// A text value a hostile (or careless) client sends, named for the test report.
struct HostileValue: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    var testDescription: String { name }
}

/// Values an attacker (or a careless client) sends are data, never SQL: every statement
/// binds its parameters, so these come back byte for byte and the tables survive.
@Suite struct PetStoreHostileValueTests {
    static let values = [
        HostileValue(name: "statement terminator", text: "'); DROP TABLE pets;--"),
        HostileValue(name: "Bobby Tables", text: "Robert'); DROP TABLE vets; --"),
        HostileValue(name: "double quote", text: "\" OR 1=1 --"),
        HostileValue(name: "tautology", text: "' OR '1'='1"),
        HostileValue(name: "LIKE wildcards", text: "%_\\%"),
        HostileValue(name: "NUL inside", text: "a\u{0}b"),
        HostileValue(name: "NUL alone", text: "\u{0}"),
        HostileValue(name: "empty", text: ""),
        HostileValue(name: "non-ASCII and bidi override", text: "Zoë 🐶 \u{202E}evil"),
        HostileValue(name: "20,000 characters of quotes", text: String(repeating: "x'", count: 10_000)),
    ]

    @Test(arguments: values)
    func hostileTextRoundTripsAsData(_ value: HostileValue) throws {
        let text = value.text
        let store = try PetStore(path: ":memory:")
        let created = try store.createPet(PetFields(firstName: text, lastName: text, vetId: 1))
        #expect(try store.pet(id: created.id)?.fields == PetFields(firstName: text, lastName: text, vetId: 1))
        let vet = try store.createVet(VetFields(firstName: text, lastName: text, title: text))
        #expect(try store.vet(id: vet.id)?.fields == VetFields(firstName: text, lastName: text, title: text))
        let updated = try store.updatePet(id: 1, PetFields(firstName: text, lastName: nil, vetId: 2))
        #expect(updated?.fields.firstName == text)
        #expect(try store.pets().first?.fields.firstName == text)
        #expect(try store.pets().count == 5)
        #expect(try store.vets().count == 4)
    }
}
