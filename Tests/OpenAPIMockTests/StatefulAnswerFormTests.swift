import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import Testing

@testable import OpenAPIMock

/// A stateful answer is written into the head laid out once for its route's plain answer (only
/// `Location` and `Content-Length` per answer): its bytes are those of the same response
/// prepared whole, however it was asked for.
@Suite struct StatefulAnswerFormTests {
    static let json: HTTPHeaders = ["Content-Type": "application/json"]

    static func bytes(_ form: PreparedResponse.Form) -> [UInt8] { Array(form.storage.bytes) }

    /// Checks that `answer`'s forms are those of its response prepared whole.
    static func expectPreparedWhole(_ answer: FallbackAnswer, _ label: String) {
        let whole = PreparedResponse(answer.response.response)
        #expect(bytes(answer.response.identity) == bytes(whole.identity), "\(label)")
        #expect(answer.response.gzip.map(bytes) == whole.gzip.map(bytes), "\(label)")
        #expect(answer.response.hasDate == whole.hasDate && answer.response.wantsClose == whole.wantsClose, "\(label)")
    }

    @Test(arguments: [[], [("Accept", "application/json")]] as [[(String, String)]])
    func everyRoleAnswersTheBytesOfTheResponsePreparedWhole(accept: [(String, String)]) throws {
        let responder = OpenAPIResponder(contract: try StatefulResourceTests.contract(), stateful: true)
        let asked = HTTPHeaders(accept)
        var body = Self.json
        for field in asked.fields { body.add(name: field.name, value: field.value) }
        // Twice each: the first answer of a route lays its head out, the second is written into it.
        for round in 1...2 {
            let created = try PrismDetailsTests.reply(
                responder, "/v1/things", method: .post, headers: body, body: #"{"name":"saw \#(round)"}"#)
            #expect(created.response.response.status.code == 201)
            let location = try #require(created.response.response.headers.first(name: "Location"))
            Self.expectPreparedWhole(created, "create \(round)")
            let read = try PrismDetailsTests.reply(responder, location, headers: asked)
            #expect(read.response.response.status.code == 200)
            #expect(read.response.response.body == created.response.response.body)
            Self.expectPreparedWhole(read, "read \(round)")
            Self.expectPreparedWhole(try PrismDetailsTests.reply(responder, "/v1/things", headers: asked), "list")
            let replaced = try PrismDetailsTests.reply(
                responder, location, method: .put, headers: body, body: #"{"name":"big saw","kind":"tool"}"#)
            #expect(replaced.response.response.status.code == 200)
            Self.expectPreparedWhole(replaced, "replace \(round)")
        }
    }
}
