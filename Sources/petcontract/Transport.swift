import ContractKit
import HTTPClient

/// The HTTP transport `verify --live` uses.
enum Transport {
    static func make(timeout: Int) throws -> any HTTPTransport {
        // The libcurl transport (CurlTransport) is on its way from the client branch; until it
        // lands on main there is no real transport to wire here.
        throw ContractError.io(
            path: "HTTPClient", message: "the libcurl transport is not built into this petcontract yet")
    }
}
