import EndpointKit
import HTTPCore
import PetModels

/// The ``PetService`` backed by the Pet API over HTTP.
///
/// ```swift
/// let service = RESTPetService(baseURL: "http://127.0.0.1:8080/api")
/// let pets = try await service.pets()
/// ```
public final class RESTPetService: PetService {
    /// What sends the endpoints; holds the base URL, transport, observer and presenter.
    public let client: EndpointClient

    /// Creates a service for the API at `baseURL`, sending over `transport` (a
    /// ``URLSessionTransport`` on the shared session unless given; a tool passes HTTPClient's
    /// `CurlTransport`), telling `activityObserver` about requests and `errorPresenter` about
    /// failures.
    public init(
        baseURL: String, transport: any HTTPTransport = URLSessionTransport(),
        activityObserver: (any ActivityObserver)? = nil, errorPresenter: (any ErrorPresenter)? = nil
    ) {
        client = EndpointClient(
            baseURL: baseURL, transport: transport, activityObserver: activityObserver, errorPresenter: errorPresenter)
    }

    public func pets() async throws(EndpointError) -> [PetJsonModel] {
        try await client.send(PetAPI.Pets())
    }

    public func petEntries() async throws(EndpointError) -> [Result<PetJsonModel, EndpointError>] {
        try await client.send(PetAPI.PetEntries())
    }

    public func vet(id: Int) async throws(EndpointError) -> VetJsonModel {
        try await client.send(PetAPI.Vet(id: id))
    }
}
