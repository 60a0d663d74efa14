import APISchema
import ContractKit
import Testing

/// `Contract.component(named:)` finds a component by name (the first of a name written twice),
/// and follows every change of `components`.
@Suite struct ContractComponentTests {
    @Test func componentsAreFoundByNameAfterEachChange() {
        var contract = Contract(
            title: "t", version: "1",
            components: [
                NamedSchema(name: "Pet", schema: Schema(types: [.object])),
                NamedSchema(name: "Pet", schema: Schema(types: [.string])),
            ])
        #expect(contract.component(named: "Pet")?.types == [.object])
        #expect(contract.component(named: "Vet") == nil)
        contract.components.append(NamedSchema(name: "Vet", schema: Schema(types: [.integer])))
        #expect(contract.component(named: "Vet")?.types == [.integer])
        contract.components.removeFirst()
        #expect(contract.component(named: "Pet")?.types == [.string])
        contract.components = []
        #expect(contract.component(named: "Pet") == nil)
        #expect(contract.resolve(Schema(reference: "#/components/schemas/Pet")) == nil)
    }
}
