import PetAPIServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct PetStoreTests {
    @Test func seedsOnceAndListsInIdOrder() throws {
        let store = try PetStore(path: ":memory:")
        #expect(try store.pets().map(\.fields.firstName) == ["Rex", "Bella", "Milo", "Luna"])
        #expect(try store.vets().count == 3)
        #expect(try store.vet(id: 2)?.fields.title == "BVSc")
    }

    @Test func writesRoundTripAndReportMissingRows() throws {
        let store = try PetStore(path: ":memory:")
        let created = try store.createPet(PetFields(firstName: "Kiwi", lastName: nil, vetId: 3))
        #expect(created.id == 5)
        #expect(try store.pet(id: 5) == created)
        #expect(try store.updatePet(id: 99, created.fields) == nil)
        let vet = try #require(try store.updateVet(id: 2, VetFields(firstName: "Omar", lastName: "Haddad", title: nil)))
        #expect(vet.fields.title == nil)
        #expect(try store.vet(id: 2)?.fields.title == nil)
        #expect(try store.deletePet(id: 1))
        #expect(try !store.deletePet(id: 1))
        #expect(try store.pet(id: 1) == nil)
    }

    @Test func petWriteNamingMissingVetChangesNothing() throws {
        let store = try PetStore(path: ":memory:")
        #expect(throws: PetStoreError.unknownVet(42)) {
            try store.createPet(PetFields(firstName: "Ghost", lastName: nil, vetId: 42))
        }
        #expect(throws: PetStoreError.unknownVet(42)) {
            try store.updatePet(id: 1, PetFields(firstName: "Rex", lastName: nil, vetId: 42))
        }
        #expect(try store.pets().count == 4)
        #expect(try store.pet(id: 1)?.fields.vetId == 1)
    }

    @Test func deletingAVetLeavesItsPetsPointingAtIt() throws {
        let store = try PetStore(path: ":memory:")
        #expect(try store.deleteVet(id: 3))
        #expect(try store.pet(id: 4)?.fields.vetId == 3)
        #expect(try store.vet(id: 3) == nil)
    }

    @Test func fileDatabaseKeepsDataAndDoesNotReseed() throws {
        let folder = try TemporaryDirectory(prefix: "petstore")
        defer { folder.remove() }
        let dir = folder.path
        do {
            let store = try PetStore(path: dir + "/pets.sqlite")
            for pet in try store.pets() { _ = try store.deletePet(id: pet.id) }
        }
        let reopened = try PetStore(path: dir + "/pets.sqlite")
        #expect(try reopened.pets().isEmpty)
        #expect(try reopened.vets().count == 3)
        #expect(try reopened.integrityCheck() == "ok")
    }

    @Test func concurrentWritersAllLand() async throws {
        let store = try PetStore(path: ":memory:")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { _ = try store.createPet(PetFields(firstName: "P\(index)", lastName: nil, vetId: 1)) }
            }
            try await group.waitForAll()
        }
        #expect(try store.pets().count == 54)
    }
}
