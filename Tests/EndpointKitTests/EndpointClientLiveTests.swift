import EndpointKit
import HTTPCore
import TestSupport
import Testing

/// ``EndpointClient`` over both real transports, against a live server: the same values and
/// the same errors whichever sends.
@Suite(.timeLimit(.minutes(10))) struct EndpointClientLiveTests {
    struct Item: Decodable, Sendable, Hashable {
        let id: Int
        let name: String
    }

    struct Items: Endpoint {
        typealias Response = [Item]
        var path = "/items"
    }

    struct OneItem: Endpoint {
        typealias Response = Item
        let id: Int
        var path: String { "/items/\(id)" }
    }

    static let routes = FixedRoutes([
        "/api/items": .init(body: #"[{"id":1,"name":"one"},{"id":2,"name":"two"}]"#),
        "/api/items/1": .init(body: #"{"id":1,"name":"one"}"#),
        "/api/items/2": .init(body: #"{"id":"2","name":"two"}"#),
        "/api/items/3": .init(status: 410, body: #"{"code":410,"message":"gone for good"}"#),
    ])

    @Test(arguments: TransportKind.allCases)
    func decodesTheValues(over kind: TransportKind) async throws {
        let server = try LiveHTTPServer(handler: Self.routes)
        defer { server.stop() }
        let client = EndpointClient(baseURL: server.url("/api"), transport: kind.make())
        #expect(try await client.send(Items()) == [Item(id: 1, name: "one"), Item(id: 2, name: "two")])
        #expect(try await client.send(OneItem(id: 1)) == Item(id: 1, name: "one"))
    }

    @Test(arguments: TransportKind.allCases)
    func reportsTheSameErrors(over kind: TransportKind) async throws {
        let server = try LiveHTTPServer(handler: Self.routes)
        defer { server.stop() }
        let client = EndpointClient(baseURL: server.url("/api"), transport: kind.make())
        await #expect {
            try await client.send(OneItem(id: 2))
        } throws: { error in
            guard case .decoding(let failure) = error as? EndpointError else { return false }
            return failure.path == "id" && failure.problem == "expected Int, found string"
        }
        await #expect {
            try await client.send(OneItem(id: 3))
        } throws: { error in
            guard case .http(let status, let serverError as APIErrorMessage, _, _) = error as? EndpointError else {
                return false
            }
            return status.code == 410 && serverError == APIErrorMessage(code: 410, message: "gone for good")
        }
        await #expect {
            try await client.send(OneItem(id: 4))
        } throws: { error in
            guard case .http(let status, _, let excerpt, _) = error as? EndpointError else { return false }
            return status.code == 404 && excerpt == "no route"
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aServerThatIsDownIsATransportError(over kind: TransportKind) async throws {
        let closed = try ClosedPort()
        let client = EndpointClient(baseURL: "http://127.0.0.1:\(closed.port)/api", transport: kind.make())
        await #expect {
            try await client.send(Items())
        } throws: { error in
            guard case .transport(let transportError) = error as? EndpointError else { return false }
            return transportError.kind == .couldNotConnect
        }
        withExtendedLifetime(closed) {}
    }
}
