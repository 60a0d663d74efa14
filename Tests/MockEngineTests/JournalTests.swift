import HTTPCore
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

@Suite struct JournalTests {
    @Test func theJournalKeepsOnlyTheNewestEntries() throws {
        let server = try startServer(stubs: Fixtures.stubs) { $0.journalCapacity = 5 }
        defer { server.stop() }
        for number in 0..<12 { _ = try exchange(server.port, "/api/vets/\(number)") }
        let requests = server.admin.requests()
        #expect(requests.count == 5)
        #expect(requests.map(\.url) == (7..<12).reversed().map { "/api/vets/\($0)" })
        #expect(Set(requests.map(\.id)).count == 5)
        #expect(requests.allSatisfy { $0.clientIP == "127.0.0.1" })
        #expect(requests.first?.matchedMapping?.name == "vets: unknown id")
        #expect(requests.last?.sequence == 8)
    }

    /// An entry prints as one readable line, not its stored bytes.
    @Test func anEntryPrintsAsOneLine() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        _ = try server.answer("/api/vets/1")
        _ = try server.answer("/api/nothing\u{1B}[31m")
        let entries = server.admin.requests()
        #expect(entries.count == 2)
        #expect("\(entries[1])".hasPrefix("#1 GET /api/vets/1 -> 200, stub "), "\(entries[1])")
        #expect(!"\(entries[0])".contains("\u{1B}"), "escaped for a terminal: \(entries[0])")
        #expect("\(entries[0])".contains("-> 404, no stub matched"), "\(entries[0])")
    }

    @Test func defaultCapacityIsTenThousandAndZeroDisables() throws {
        #expect(StubServerConfiguration().journalCapacity == 10_000)
        let server = try makeServer(stubs: Fixtures.stubs) { $0.journalCapacity = 0 }
        _ = try server.answer("/api/pets")
        #expect(server.admin.requests().isEmpty)
        #expect(try server.answer("/__admin/requests").json["requestJournalDisabled"] == true)
    }

    @Test func removingOneEntryKeepsTheRest() throws {
        let server = try makeServer(stubs: Fixtures.stubs) { $0.journalCapacity = 3 }
        for number in 1...4 { _ = try server.answer("/api/vets/\(number)") }
        let middle = try #require(server.admin.requests().dropFirst().first)
        #expect(server.admin.removeRequest(id: middle.id))
        #expect(server.admin.requests().map(\.url) == ["/api/vets/4", "/api/vets/2"])
        _ = try server.answer("/api/vets/5")
        _ = try server.answer("/api/vets/6")
        #expect(server.admin.requests().map(\.url) == ["/api/vets/6", "/api/vets/5", "/api/vets/4"])
    }

    @Test func entriesTogetherStayUnderTheByteBudget() {
        let journal = RequestJournal(capacity: 10, byteBudget: 100)
        for number in 0..<6 {
            journal.append(
                LoggedRequest(
                    sequence: 0, idPrefix: journal.idPrefix, method: .post, url: "/\(number)", headers: [:],
                    body: Array(repeating: 65, count: 40), clientAddress: nil, loggedDate: 0, variant: nil,
                    responseStatus: 200, stub: nil))
        }
        #expect(journal.entries().map(\.url) == ["/4", "/5"])
        journal.append(
            LoggedRequest(
                sequence: 0, idPrefix: journal.idPrefix, method: .post, url: "/huge", headers: [:],
                body: Array(repeating: 65, count: 500), clientAddress: nil, loggedDate: 0, variant: nil,
                responseStatus: 200, stub: nil))
        #expect(journal.entries().map(\.url) == ["/huge"], "one entry is always kept")
        journal.append(
            LoggedRequest(
                sequence: 0, idPrefix: journal.idPrefix, method: .get, url: "/fields",
                headers: ["Cookie": String(repeating: "c", count: 200)], body: [], clientAddress: nil, loggedDate: 0,
                variant: nil, responseStatus: 200, stub: nil))
        #expect(journal.entries().map(\.url) == ["/fields"], "header fields count against the budget too")
    }

    /// An entry holds a proxied request's upstream result in the one allocation that holds its
    /// URL and header fields: the ring keeps up to 10,000 entries, each freed long after it was
    /// made, and the result inline (a response with its headers, body and timings, or an error)
    /// more than doubled every slot, 4.3 MB of RSS for a full journal of small requests.
    @Test func aJournalSlotStaysSmall() throws {
        #expect(MemoryLayout<LoggedRequest?>.stride <= 160)
        let upstream = UpstreamResult(
            url: "http://127.0.0.1:1/api/pets",
            outcome: .success(HTTPClientResponse(status: .ok, headers: [:], body: Array("[]".utf8))),
            duration: .milliseconds(3))
        let entry = LoggedRequest(
            sequence: 1, idPrefix: 0, method: .get, url: "/api/pets", headers: [:], body: [], clientAddress: nil,
            loggedDate: 0, variant: nil, responseStatus: 200, stub: nil, upstream: upstream)
        #expect(entry.upstream?.url == upstream.url)
        #expect(entry.upstream?.response?.body == Array("[]".utf8))
        #expect(entry.wasProxied)
        let unproxied = LoggedRequest(
            sequence: 1, idPrefix: 0, method: .get, url: "/api/pets", headers: [:], body: [], clientAddress: nil,
            loggedDate: 0, variant: nil, responseStatus: 200, stub: nil)
        #expect(entry.retainedBytes > unproxied.retainedBytes + upstream.url.utf8.count + 2)
    }

    /// Every part of a proxied response comes back from the journal as it went in, and so does
    /// an upstream failure.
    @Test func aProxiedEntryGivesBackTheWholeUpstreamResult() throws {
        var response = HTTPClientResponse(
            status: HTTPStatus(code: 299, reasonPhrase: "Fine Enough For A Long Reason Phrase"), version: .http10,
            headers: ["ETag": "\"abc-\u{e9}\"", "X-Long": String(repeating: "v", count: 300), "Empty": ""],
            body: (0..<400).map { UInt8(truncatingIfNeeded: $0) }, contentEncoding: "gzip",
            url: "http://127.0.0.1:9/api/pets?x=1",
            timings: HTTPTimings(
                nameLookup: .microseconds(1), connect: .milliseconds(2), firstByte: .seconds(3), total: .seconds(40_000)
            ))
        response.connectionReused = true
        let upstream = UpstreamResult(
            url: "http://127.0.0.1:9/api/pets", outcome: .success(response), duration: .nanoseconds(123_456_789))
        let headers: HTTPHeaders = ["Host": "127.0.0.1:8080", "User-Agent": "petkit-tests/1.0 (a long product token)"]
        let entry = LoggedRequest(
            sequence: 1, idPrefix: 0, method: .get, url: "/api/pets?name=\u{1F408}", headers: headers, body: [1, 2],
            clientAddress: nil, loggedDate: 0, variant: nil, responseStatus: 299, stub: nil, upstream: upstream)
        let back = try #require(entry.upstream)
        let backResponse = try #require(back.response)
        #expect(back.url == upstream.url && back.duration == upstream.duration)
        #expect(backResponse == response)
        #expect(backResponse.status.reasonPhrase == response.status.reasonPhrase)
        #expect(backResponse.connectionReused && backResponse.contentEncoding == "gzip")
        #expect(entry.url == "/api/pets?name=\u{1F408}" && entry.headers == headers && entry.body == [1, 2])

        let failure = UpstreamResult(
            url: "http://127.0.0.1:9/x",
            outcome: .failure(HTTPClientError(kind: .timedOut, url: "http://127.0.0.1:9/x", message: "timed out")),
            duration: .seconds(1))
        let failed = LoggedRequest(
            sequence: 2, idPrefix: 0, method: .get, url: "/x", headers: [:], body: [], clientAddress: nil,
            loggedDate: 0, variant: nil, responseStatus: 504, stub: nil, upstream: failure)
        #expect(failed.wasProxied && failed.upstream?.failure == failure.failure && failed.upstream?.url == failure.url)
        #expect(failed.upstream?.response == nil)
    }

    /// The ring against a plain list under seeded streams of appends (of random sizes, so the
    /// byte budget evicts too), removals and clears: the same entries in the same order, and
    /// never more slots than entries were ever kept at once, up to the capacity.
    @Test(arguments: [1, 2, 5, 16])
    func theGrowingRingKeepsWhatAListWould(capacity: Int) {
        var generator = SplitMix64(seed: UInt64(capacity))
        let journal = RequestJournal(capacity: capacity, byteBudget: 300)
        var model: [(url: String, bytes: Int)] = []
        var most = 0
        for step in 0..<400 {
            switch generator.next() % 10 {
            case 0:
                let cut = Int(generator.next() % 3)
                journal.remove { $0.url.hasSuffix("/\(cut)") }
                model.removeAll { $0.url.hasSuffix("/\(cut)") }
            case 1 where step.isMultiple(of: 7):
                journal.clear()
                model.removeAll()
            default:
                let size = Int(generator.next() % 120)
                let url = "/\(step)/\(step % 3)"
                journal.append(
                    LoggedRequest(
                        sequence: 0, idPrefix: journal.idPrefix, method: .post, url: url, headers: [:],
                        body: Array(repeating: 65, count: size), clientAddress: nil, loggedDate: 0, variant: nil,
                        responseStatus: 200, stub: nil))
                model.append((url, journal.entries().last?.retainedBytes ?? 0))
                if model.count > capacity { model.removeFirst() }
                while model.count > 1 && model.reduce(0, { $0 + $1.bytes }) > 300 { model.removeFirst() }
            }
            most = max(most, model.count)
            #expect(journal.entries().map(\.url) == model.map(\.url), "step \(step)")
        }
        #expect(journal.slotCount <= max(most, 1) && journal.slotCount <= capacity)
    }
}
