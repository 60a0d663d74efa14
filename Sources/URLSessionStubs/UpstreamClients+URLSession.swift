import EndpointKit
import Foundation
import MockEngine

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension UpstreamClients {
    /// Clients that send every upstream request (proxy stubs, `proxyUnmatched`, webhooks,
    /// OpenAPI callbacks) through a URLSession: `session`, else an ephemeral one made on the
    /// first such request (most engines never make one). No libcurl of petkit's: what an iOS
    /// test target can link. `scheduleOnLoop` is the front end's, when it has event loops.
    package static func urlSession(
        _ session: URLSession?, scheduleOnLoop: ScheduleOnLoop? = nil
    ) -> UpstreamClients {
        UpstreamClients(
            makeTransport: { settings in
                URLSessionTransport(
                    session: session ?? URLSession(configuration: .ephemeral), maxResponseSize: settings.maxResponseSize
                )
            }, scheduleOnLoop: scheduleOnLoop)
    }
}
