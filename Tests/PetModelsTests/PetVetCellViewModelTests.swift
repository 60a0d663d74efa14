import ContractModel
import PetModels
import Testing

@Suite struct PetVetCellViewModelTests {
    let pet = PetJsonModel(firstName: "Rex", lastName: "Smith", vetId: 1)
    let vet = VetJsonModel(firstName: "Ann", lastName: "Lee", title: "DVM")

    @Test func rowTextJoinsNamesAndTitle() throws {
        let row = try #require(PetVetCellViewModel(pet, vet))
        #expect(row.petName == "Rex Smith")
        #expect(row.vetNameAndTitle == "Ann Lee, DVM")
    }

    @Test func missingOptionalFieldsDegradeTheRow() throws {
        let row = try #require(
            PetVetCellViewModel(
                PetJsonModel(firstName: "Rex", lastName: nil, vetId: 1),
                VetJsonModel(firstName: "Ann", lastName: "Lee", title: nil)))
        #expect(row.petName == "Rex")
        #expect(row.vetNameAndTitle == "Ann Lee")
    }

    // The view model's failable initialiser and the contract's `required` lists must agree:
    // dropping any one field fails the row exactly when the model declares it required.
    @Test(arguments: ["firstName", "lastName", "vetId"])
    func petFieldRequirementMatchesContract(key: String) {
        let dropped = PetJsonModel(
            firstName: key == "firstName" ? nil : "Rex", lastName: key == "lastName" ? nil : "Smith",
            vetId: key == "vetId" ? nil : 1)
        let result = PetVetCellViewModel.make(pet: dropped, vet: vet)
        let required = PetJsonModel.requiredKeys.contains(key)
        #expect((try? result.get()) == nil ? required : !required)
        if required { #expect(result == .failure(.pet(key))) }
    }

    @Test(arguments: ["firstName", "lastName", "title"])
    func vetFieldRequirementMatchesContract(key: String) {
        let dropped = VetJsonModel(
            firstName: key == "firstName" ? nil : "Ann", lastName: key == "lastName" ? nil : "Lee",
            title: key == "title" ? nil : "DVM")
        let result = PetVetCellViewModel.make(pet: pet, vet: dropped)
        let required = VetJsonModel.requiredKeys.contains(key)
        #expect((try? result.get()) == nil ? required : !required)
        if required { #expect(result == .failure(.vet(key))) }
    }
}
