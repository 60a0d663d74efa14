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
        #expect(store.reset(collection: "/a"))
        #expect(store.summary().items == 2)
        #expect(store.reset(collection: "/nothing") == false)
        #expect(store.reset())
        #expect(store.summary().items == 1)
        #expect(store.page(of: "/b", offset: 0, limit: 5).total == 0)
    }
}
