import JSONKit
import OpenAPIMock
import Testing

/// The store on its own: bounds, the integer sequence, and RFC 7396's merge patch.
@Suite struct ResourceStoreTests {
    struct PatchCase: CustomTestStringConvertible, Sendable {
        var target: String
        var patch: String
        var result: String
        var testDescription: String { "\(target) + \(patch)" }
    }

    /// RFC 7396, Appendix A: every example of its table.
    static let rfcExamples: [PatchCase] = [
        PatchCase(target: #"{"a":"b"}"#, patch: #"{"a":"c"}"#, result: #"{"a":"c"}"#),
        PatchCase(target: #"{"a":"b"}"#, patch: #"{"b":"c"}"#, result: #"{"a":"b","b":"c"}"#),
        PatchCase(target: #"{"a":"b"}"#, patch: #"{"a":null}"#, result: #"{}"#),
        PatchCase(target: #"{"a":"b","b":"c"}"#, patch: #"{"a":null}"#, result: #"{"b":"c"}"#),
        PatchCase(target: #"{"a":["b"]}"#, patch: #"{"a":"c"}"#, result: #"{"a":"c"}"#),
        PatchCase(target: #"{"a":"c"}"#, patch: #"{"a":["b"]}"#, result: #"{"a":["b"]}"#),
        PatchCase(
            target: #"{"a":{"b":"c"}}"#, patch: #"{"a":{"b":"d","c":null}}"#, result: #"{"a":{"b":"d"}}"#),
        PatchCase(target: #"{"a":[{"b":"c"}]}"#, patch: #"{"a":[1]}"#, result: #"{"a":[1]}"#),
        PatchCase(target: #"["a","b"]"#, patch: #"["c","d"]"#, result: #"["c","d"]"#),
        PatchCase(target: #"{"a":"b"}"#, patch: #"["c"]"#, result: #"["c"]"#),
        PatchCase(target: #"{"a":"foo"}"#, patch: "null", result: "null"),
        PatchCase(target: #"{"a":"foo"}"#, patch: #""bar""#, result: #""bar""#),
        PatchCase(target: #"{"e":null}"#, patch: #"{"a":1}"#, result: #"{"e":null,"a":1}"#),
        PatchCase(target: #"[1,2]"#, patch: #"{"a":"b","c":null}"#, result: #"{"a":"b"}"#),
        PatchCase(target: #"{}"#, patch: #"{"a":{"bb":{"ccc":null}}}"#, result: #"{"a":{"bb":{}}}"#),
    ]

    @Test(arguments: rfcExamples)
    func mergePatchFollowsRFC7396(_ test: PatchCase) throws {
        let result = MergePatch.apply(try JSONValue(parsing: test.patch), to: try JSONValue(parsing: test.target))
        #expect(result == (try JSONValue(parsing: test.result)))
    }

    @Test func theSequenceFollowsTheLargestIDStored() throws {
        let store = ResourceStore(seed: [("/things", [("7", ["id": 7]), ("2", ["id": 2])])])
        #expect(store.nextNumber(in: "/things") == 8)
        #expect(store.nextNumber(in: "/things") == 9)
        #expect(store.nextNumber(in: "/other") == 1)
        #expect(try store.insert(["id": 20], id: "20", in: "/things"))
        #expect(store.nextNumber(in: "/things") == 21)
        // An id taken is not stored twice.
        #expect(try store.insert(["id": 20], id: "20", in: "/things") == false)
        #expect(store.page(of: "/things", offset: 0, limit: 10).items.map { $0["id"] } == [7, 2, 20])
    }

    struct LimitCase: CustomTestStringConvertible, Sendable {
        var limits: ResourceStore.Limits
        var stored: Int
        var refusal: ResourceStore.Refusal
        var testDescription: String { "\(refusal)" }
    }

    static let limitCases: [LimitCase] = [
        LimitCase(limits: .init(collections: 10, items: 3, bytes: 1_000), stored: 3, refusal: .items(limit: 3)),
        LimitCase(limits: .init(collections: 2, items: 100, bytes: 1_000), stored: 2, refusal: .collections(limit: 2)),
        // Each resource is `{"id":N}` (8 bytes) and its id (1 byte).
        LimitCase(limits: .init(collections: 10, items: 100, bytes: 30), stored: 3, refusal: .bytes(limit: 30)),
    ]

    /// Writes past a limit are refused; the store never grows past it. Each resource goes to a
    /// collection of its own.
    @Test(arguments: limitCases)
    func theStoreIsBounded(_ test: LimitCase) throws {
        let store = ResourceStore(limits: test.limits)
        var stored = 0
        var refusal: ResourceStore.Refusal?
        for number in 1...9 {
            do {
                _ = try store.insert(["id": .int(Int64(number))], id: String(number), in: "/c\(number)")
                stored += 1
            } catch {
                refusal = error
                break
            }
        }
        #expect(stored == test.stored)
        #expect(refusal == test.refusal)
        #expect(store.summary().items == test.stored)
        // A replace that would pass the byte limit is refused too.
        if case .bytes = test.refusal {
            #expect(throws: ResourceStore.Refusal.bytes(limit: 30)) {
                try store.replace(["id": 1, "long": "a long value"], id: "1", in: "/c1")
            }
        }
    }

    @Test func aReplaceOfAResourceThatChangedMeanwhileIsNotMade() throws {
        let store = ResourceStore()
        #expect(try store.insert(["v": 1], id: "1", in: "/c"))
        #expect(try store.replace(["v": 2], id: "1", in: "/c", expected: ["v": 1]))
        #expect(try store.replace(["v": 3], id: "1", in: "/c", expected: ["v": 1]) == false)
        #expect(try store.replace(["v": 3], id: "9", in: "/c") == false)
        #expect(store.value(id: "1", in: "/c") == ["v": 2])
    }

    @Test func aResetGoesBackToTheSeed() throws {
        let store = ResourceStore(seed: [("/a", [("1", ["id": 1])])])
        _ = try store.insert(["id": 2], id: "2", in: "/a")
        _ = try store.insert(["id": 1], id: "1", in: "/b")
        #expect(try store.reset(collection: "/a"))
        #expect(store.summary().items == 2)
        #expect(try store.reset(collection: "/nothing") == false)
        #expect(try store.reset())
        #expect(store.summary().items == 1)
        #expect(store.page(of: "/b", offset: 0, limit: 5).total == 0)
    }

    @Test func theSeedsRefusedExamplesAreNamed() throws {
        let store = ResourceStore(
            limits: ResourceStore.Limits(collections: 10, items: 2, bytes: 1 << 20),
            seed: [("/a", [("1", ["id": 1]), ("1", ["id": 1, "again": true]), ("2", ["id": 2]), ("3", ["id": 3])])])
        #expect(store.summary().items == 2)
        #expect(store.seedProblems.count == 2)
        #expect(store.seedProblems.first?.contains("'1' repeats an id") == true, "\(store.seedProblems)")
        #expect(store.seedProblems.last?.contains("'3'") == true)
        #expect(store.seedProblems.last?.contains("limit of 2 resources") == true)
        #expect(ResourceStore(seed: [("/a", [("1", ["id": 1])])]).seedProblems.isEmpty)
    }

    @Test func reservingNumbersMakesNoCollection() throws {
        let store = ResourceStore(limits: ResourceStore.Limits(collections: 1, items: 10, bytes: 1 << 20))
        for number in 0..<5 { _ = store.nextNumber(in: "/users/\(number)/orders") }
        #expect(store.summary().collections.isEmpty)
        // The one collection the limit allows is still free.
        #expect(try store.insert(["id": 1], id: "1", in: "/things"))
        #expect(throws: ResourceStore.Refusal.collections(limit: 1)) {
            try store.insert(["id": 1], id: "1", in: "/others")
        }
    }

    @Test func anEmptiedCollectionKeepsItsSequenceAndFreesItsPlace() throws {
        let store = ResourceStore(limits: ResourceStore.Limits(collections: 1, items: 10, bytes: 1 << 20))
        #expect(try store.insert(["id": 1], id: "1", in: "/a"))
        #expect(try store.remove(id: "1", in: "/a"))
        #expect(store.summary().collections.isEmpty)
        #expect(store.nextNumber(in: "/a") == 2)
        #expect(try store.insert(["id": 1], id: "1", in: "/b"))
    }

    @Test func theLargestIntegerIDEndsTheSequenceWithoutOverflow() throws {
        let store = ResourceStore(seed: [("/a", [(String(Int64.max), ["id": .int(.max)])])])
        #expect(store.nextNumber(in: "/a") == .max)
        #expect(store.nextNumber(in: "/a") == .max)
    }

    /// Deletes leave the order of the rest, pages skip what was deleted, and the order is
    /// compacted as holes pile up.
    @Test(arguments: [[3], [0, 1, 2], [9, 8, 7, 6, 5, 4], [0, 2, 4, 6, 8], Array(0..<10)])
    func deletesKeepTheOrderOfTheRest(_ deleted: [Int]) throws {
        let store = ResourceStore()
        for number in 0..<10 { #expect(try store.insert(["n": .int(Int64(number))], id: "\(number)", in: "/c")) }
        for number in deleted { #expect(try store.remove(id: "\(number)", in: "/c")) }
        #expect(try store.remove(id: "\(deleted[0])", in: "/c") == false)
        let rest = (0..<10).filter { !deleted.contains($0) }.map { JSONValue.int(Int64($0)) }
        #expect(store.page(of: "/c", offset: 0, limit: 100).items.map { $0["n"] } == rest)
        #expect(store.page(of: "/c", offset: 0, limit: 100).total == rest.count)
        for offset in 0...rest.count {
            let page = store.page(of: "/c", offset: offset, limit: 2).items.map { $0["n"] }
            #expect(page == Array(rest.dropFirst(offset).prefix(2)))
        }
        // A new one goes last.
        #expect(try store.insert(["n": 10], id: "10", in: "/c"))
        #expect(store.page(of: "/c", offset: rest.count, limit: 5).items.map { $0["n"] } == [10])
    }

    @Test func aReplaceOfAStaleReadIsRefusedEvenAfterAReset() throws {
        let store = ResourceStore(seed: [("/c", [("1", ["v": 1])])])
        #expect(try store.replace(["v": 2], id: "1", in: "/c"))
        // A client read v 2, then the store was reset to the seed's v 1.
        try store.reset()
        #expect(try store.replace(["v": 3], id: "1", in: "/c", expected: ["v": 2]) == false)
        #expect(store.value(id: "1", in: "/c") == ["v": 1])
    }
}
