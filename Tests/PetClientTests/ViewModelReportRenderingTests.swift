import PetClient
import PetModels
import Testing

@Suite struct ViewModelReportRenderingTests {
    let report = ViewModelReport(
        rows: [
            PetVetCellViewModel(petName: "Rex Smith", vetNameAndTitle: "Ann Lee, DVM"),
            PetVetCellViewModel(petName: "Bo", vetNameAndTitle: "Omar \"Doc\" Haddad"),
        ],
        dropped: [
            DroppedPet(
                index: 2, pet: PetJsonModel(firstName: "Tom", lastName: nil, vetId: 7),
                reason: .missingField(.vet("lastName"), vetId: 7))
        ],
        petCount: 3)

    @Test func textIsATableThenTheDroppedPets() {
        #expect(
            report.renderedText() == """
                PET        VET
                Rex Smith  Ann Lee, DVM
                Bo         Omar "Doc" Haddad

                Dropped 1 of 3 pets:
                  pet 2 'Tom': vet 7 has no 'lastName'
                """)
    }

    @Test func jsonHasTheIssuesShapeAndEscapes() {
        #expect(
            report.renderedJSON(requests: 4)
                == #"{"rows":[{"petName":"Rex Smith","vetNameAndTitle":"Ann Lee, DVM"},"#
                + #"{"petName":"Bo","vetNameAndTitle":"Omar \"Doc\" Haddad"}],"#
                + #""dropped":[{"index":2,"reason":"vet 7 has no 'lastName'"}],"requests":4}"#)
        let empty = ViewModelReport(rows: [], dropped: [], petCount: 0)
        #expect(empty.renderedJSON(requests: 1) == #"{"rows":[],"dropped":[],"requests":1}"#)
        #expect(empty.renderedText() == "PET  VET\n(no rows)")
    }

    @Test func textShowsControlCharactersFromTheAPIEscaped() {
        let injected = "x\u{1B}[2J\n::error::INJECTED"
        let report = ViewModelReport(
            rows: [PetVetCellViewModel(petName: injected, vetNameAndTitle: "Ann\u{202E}Lee")],
            dropped: [
                DroppedPet(
                    index: 1, pet: PetJsonModel(firstName: injected, lastName: nil, vetId: 7),
                    reason: .missingField(.pet(injected), vetId: nil))
            ],
            petCount: 2)
        let text = report.renderedText()
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        #expect(!text.split(separator: "\n").contains { $0.drop { $0 == " " }.hasPrefix("::") }, "\(text)")
        #expect(text.contains(#"x\u001b[2J\u000a::error::INJECTED  Ann\u202eLee"#))
        #expect(text.contains(#"pet 1 'x\u001b[2J\u000a::error::INJECTED': pet has no 'x\u001b"#))
    }
}
