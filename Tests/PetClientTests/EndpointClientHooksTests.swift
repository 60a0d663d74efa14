import EndpointKit
import Foundation
import HTTPCore
import PetClient
import PetModels
import Platform
import Testing

/// Records what the activity observer and error presenter were told, in order.
final class HookRecorder: ActivityObserver, ErrorPresenter {
    let events = Locked<[String]>([])

    func requestStarted(_ request: HTTPClientRequest) {
        events.withLock { $0.append("start \(request.url)") }
    }

    func requestFinished(_ request: HTTPClientRequest, error: EndpointError?) {
        events.withLock { $0.append(error == nil ? "finish \(request.url)" : "fail \(request.url)") }
    }

    func present(_ error: EndpointError, for request: HTTPClientRequest) {
        events.withLock { $0.append("present \(request.url)") }
    }

    var recorded: [String] { events.withLock { $0 } }
}

/// An API whose errors look like `{"errorCode": "E42", "details": "..."}`.
struct LegacyError: APIErrorBody, Decodable {
    let errorCode: String
    let details: String

    static func parse(_ response: HTTPClientResponse) -> LegacyError? {
        try? JSONDecoderShim.decode(LegacyError.self, from: response.body)
    }

    var description: String { "\(errorCode): \(details)" }
}

struct LegacyVet: Endpoint {
    typealias Response = VetJsonModel
    typealias ErrorBody = LegacyError
    var path: String { "/legacy/vet" }
}

struct QuietPets: Endpoint {
    typealias Response = [PetJsonModel]
    var path: String { "/pets" }
    var showsActivity: Bool { false }
    var presentsErrors: Bool { false }
}

@Suite struct EndpointClientHooksTests {
    let api = FakePetAPI(petsJSON: "[]", vetsJSON: [1: #"{"firstName":"Ann","lastName":"Lee"}"#])

    func client(_ recorder: HookRecorder) -> EndpointClient {
        EndpointClient(
            baseURL: FakePetAPI.baseURL, transport: api.transport, activityObserver: recorder, errorPresenter: recorder)
    }

    @Test func observerHearsStartAndFinishAndPresenterOnlyFailures() async throws {
        let recorder = HookRecorder()
        let client = client(recorder)
        _ = try await client.send(PetAPI.Vet(id: 1))
        await #expect(throws: EndpointError.self) { try await client.send(PetAPI.Vet(id: 9)) }
        let base = FakePetAPI.baseURL
        #expect(
            recorder.recorded == [
                "start \(base)/vets/1", "finish \(base)/vets/1",
                "start \(base)/vets/9", "fail \(base)/vets/9", "present \(base)/vets/9",
            ])
    }

    @Test func endpointsCanOptOutOfActivityAndErrorPresentation() async throws {
        let recorder = HookRecorder()
        let failing = EndpointClient(
            baseURL: FakePetAPI.baseURL,
            transport: ClosureTransport { _ in .json("oops", status: .internalServerError) },
            activityObserver: recorder, errorPresenter: recorder)
        await #expect(throws: EndpointError.self) { try await failing.send(QuietPets()) }
        #expect(recorder.recorded.isEmpty)
    }

    @Test func cancellationIsNotPresentedAsAnError() async {
        let recorder = HookRecorder()
        let cancelled = EndpointClient(
            baseURL: FakePetAPI.baseURL,
            transport: ClosureTransport { request throws(HTTPClientError) in
                throw HTTPClientError(kind: .cancelled, url: request.url, message: "cancelled")
            }, activityObserver: recorder, errorPresenter: recorder)
        await #expect(throws: EndpointError.self) { try await cancelled.send(PetAPI.Pets()) }
        #expect(recorder.recorded == ["start \(FakePetAPI.baseURL)/pets", "fail \(FakePetAPI.baseURL)/pets"])
    }

    @Test func eachEndpointParsesItsOwnErrorType() async {
        let client = EndpointClient(
            baseURL: FakePetAPI.baseURL,
            transport: ClosureTransport { _ in
                .json(#"{"errorCode":"E42","details":"vet retired"}"#, status: HTTPStatus(code: 410))
            })
        await #expect {
            try await client.send(LegacyVet())
        } throws: { error in
            guard case .http(let status, let serverError as LegacyError, _, _) = error as? EndpointError else {
                return false
            }
            return status.code == 410 && serverError.errorCode == "E42" && "\(error)".contains("E42: vet retired")
        }
        // The default {code, message} parser finds nothing in this body, and says so by nil.
        await #expect {
            try await client.send(PetAPI.Vet(id: 1))
        } throws: { error in
            guard case .http(_, let serverError, let excerpt, _) = error as? EndpointError else { return false }
            return serverError == nil && excerpt.contains("E42")
        }
    }

    @Test func completionShimsHaveTheSeedsSignatures() async {
        let service = api.service()
        let pets = await withCheckedContinuation { continuation in
            service.pets { continuation.resume(returning: $0) }
        }
        #expect(pets == [])
        let vet = await withCheckedContinuation { continuation in
            service.vet(id: 1) { continuation.resume(returning: $0) }
        }
        #expect(vet?.lastName == "Lee")
        let missing = await withCheckedContinuation { continuation in
            service.vet(id: 2) { continuation.resume(returning: $0) }
        }
        #expect(missing == nil)
    }
}

enum JSONDecoderShim {
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
