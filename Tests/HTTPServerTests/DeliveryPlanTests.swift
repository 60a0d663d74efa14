import HTTPCore
import HTTPHandlerKit
import TestSupport
import Testing

@testable import HTTPServerKit

/// The one interpreter of a reply: the framing rules as a table of values, the plan a reply
/// becomes (a delay drawn once, gzip, a dribble's pieces), and the socket connection and the
/// handler test driver carrying out the same plan alike.
@Suite struct DeliveryPlanTests {
    struct FramingRow: Sendable, CustomTestStringConvertible {
        var status: Int
        var method: HTTPMethod = .get
        var chunked = false
        var http11 = true
        var field: String?
        var sendsBody: Bool
        var testDescription: String {
            "\(status) to \(method)\(chunked ? " chunked" : "")\(http11 ? "" : " HTTP/1.0") → \(field ?? "no field")"
        }
    }

    static let framingRows = [
        FramingRow(status: 200, field: "Content-Length: 5", sendsBody: true),
        FramingRow(status: 200, method: .head, field: "Content-Length: 5", sendsBody: false),
        FramingRow(status: 200, chunked: true, field: "Transfer-Encoding: chunked", sendsBody: true),
        FramingRow(status: 200, chunked: true, http11: false, field: "Content-Length: 5", sendsBody: true),
        FramingRow(status: 204, field: nil, sendsBody: false),
        FramingRow(status: 304, chunked: true, field: nil, sendsBody: false),
        FramingRow(status: 101, field: nil, sendsBody: false),
        FramingRow(status: 404, method: .head, chunked: true, field: "Transfer-Encoding: chunked", sendsBody: false),
    ]

    @Test(arguments: framingRows)
    func framingFollowsTheRules(row: FramingRow) {
        let framing = ResponseFraming(
            status: HTTPStatus(code: row.status), bodyCount: 5, chunked: row.chunked, method: row.method,
            http11: row.http11)
        #expect(framing.field.map { "\($0.name): \($0.value)" } == row.field)
        #expect(framing.sendsBody == row.sendsBody)
    }

    @Test func theHandlersFramingFieldsGiveWayToTheServers() {
        #expect(ResponseFraming.isServerField("content-length"))
        #expect(ResponseFraming.isServerField("Transfer-Encoding"))
        #expect(ResponseFraming.isServerField("CONNECTION"))
        #expect(!ResponseFraming.isServerField("Content-Type"))
        let response = HTTPResponse(
            headers: ["Content-Length": "99", "X-Kept": "1", "Connection": "close"], body: Array("hello".utf8))
        let delivery = ResponseDelivery(response, for: DeliveryRequest(method: .get), chunked: false)
        #expect(delivery.clientFields.map { "\($0.name): \($0.value)" } == ["X-Kept: 1", "Content-Length: 5"])
    }

    @Test func aDelayIsDrawnOnceWhenThePlanIsMade() {
        let reply = HTTPReply.response(HTTPResponse(text: "late"))
            .delayed(by: .uniform(lower: .milliseconds(10), upper: .milliseconds(20)))
        // The loop's own generator, seeded alike twice: a drawn delay is the same in every run.
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        guard case .wait(let drawn, let then) = reply.plan(for: DeliveryRequest(method: .get), using: &first),
            case .wait(let again, _) = reply.plan(for: DeliveryRequest(method: .get), using: &second)
        else {
            Issue.record("expected a wait")
            return
        }
        #expect(drawn >= .milliseconds(10) && drawn <= .milliseconds(20))
        #expect(drawn == again, "the same generator draws the same delay")
        // What follows the wait is the reply itself, with no delay left to draw.
        guard case .response = then.plan(for: DeliveryRequest(method: .get), using: &first) else {
            Issue.record("expected the response after the wait")
            return
        }
    }

    @Test func gzipGoesOnlyToAClientThatAcceptsIt() throws {
        let body = Array(String(repeating: "pets ", count: 200).utf8)
        let reply = HTTPReply.response(HTTPResponse(body: body, compression: .gzipIfAccepted))
        let socket = DeliveryRequest(HTTPRequestHead(method: .get, target: "/", headers: ["Accept-Encoding": "gzip"]))
        guard case .response(let zipped) = reply.plan(for: socket) else {
            Issue.record("expected a response")
            return
        }
        #expect(zipped.gzip)
        #expect(zipped.body.count < body.count)
        #expect(zipped.framing.field?.value == String(zipped.body.count))
        guard case .response(let plain) = reply.plan(for: DeliveryRequest(method: .get)) else {
            Issue.record("expected a response")
            return
        }
        #expect(!plain.gzip, "an in-process client never gets gzip")
        #expect(plain.body == body)
    }

    @Test func aDribblesPiecesAndTheirTimesAreOneRule() {
        let schedule = HTTPDribble(chunkCount: 4, duration: .milliseconds(400)).schedule(bodyCount: 10)
        #expect(schedule.map(\.bytes) == [0..<2, 2..<5, 5..<7, 7..<10])
        #expect(schedule.map(\.after) == [.zero, .milliseconds(100), .milliseconds(200), .milliseconds(400)])
        // Never more pieces than bytes, and one at least.
        #expect(HTTPDribble(chunkCount: 8, duration: .seconds(1)).schedule(bodyCount: 3).count == 3)
        #expect(HTTPDribble(chunkCount: 8, duration: .seconds(1)).schedule(bodyCount: 0).map(\.bytes) == [0..<0])
        let response = HTTPResponse(body: Array("0123456789".utf8))
        #expect(HTTPFault.keptBytes(of: response, keeping: 3) == 3)
        #expect(HTTPFault.keptBytes(of: response, keeping: 50) == 5, "more than the body keeps half")
        #expect(HTTPFault.keptBytes(of: response, keeping: -1) == 0)
    }

    /// Replies the connection and the handler test driver must carry out alike.
    static let replies: [(name: String, method: String, reply: HTTPReply)] = [
        ("prepared", "GET", .prepared(PreparedResponse(HTTPResponse(text: "hello")))),
        ("prepared to HEAD", "HEAD", .prepared(PreparedResponse(HTTPResponse(text: "hello")))),
        ("built", "GET", .response(HTTPResponse(status: .created, text: "made"))),
        ("chunked", "GET", .response(HTTPResponse(body: Array("in chunks".utf8), framing: .chunked))),
        ("204 with a body", "GET", .response(HTTPResponse(status: HTTPStatus(code: 204), text: "dropped"))),
        ("304", "GET", .response(HTTPResponse(status: HTTPStatus(code: 304), headers: ["ETag": "\"1\""]))),
        ("handler's framing fields", "GET", .response(HTTPResponse(headers: ["Content-Length": "999"], body: [65]))),
        ("delayed", "GET", .response(HTTPResponse(text: "late")).delayed(by: .fixed(.milliseconds(1)))),
    ]

    @Test func theConnectionAndTheTestDriverCarryOutTheSamePlan() throws {
        for (name, method, reply) in Self.replies {
            let handler = HTTPClosureHandler { _ in reply }
            let server = try LiveHTTPServer(handler: handler)
            defer { server.stop() }
            let socket = try fetch(server.port, method, "/")
            let values = try handler.answer(method, "/")
            #expect(socket.status == values.status, "\(name)")
            #expect(socket.body == values.body, "\(name)")
            let wire = socket.headers.fields.filter { !["date", "connection"].contains($0.name.lowercased()) }
            #expect(
                wire.map { "\($0.name): \($0.value)" } == values.headers.fields.map { "\($0.name): \($0.value)" },
                "\(name)")
        }
    }
}
