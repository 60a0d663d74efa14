import ContractKit
import HTTPClient
import HTTPCore

/// The HTTP transport `verify --live` uses: libcurl, with the request timeout as its total.
enum Transport {
    static func make(timeout: Int) throws -> any HTTPTransport {
        CurlTransport(
            configuration: CurlTransportConfiguration(
                connectTimeout: .seconds(min(timeout, 10)), totalTimeout: .seconds(timeout)))
    }
}
