import HTTPServerKit
import MockEngine
import StubServerKit

/// The error line for a server that could not start: with what to do when the port is in
/// use (`--port 0`, and the process holding it when Linux's `/proc` says).
func startFailureLine(_ error: any Error) -> String {
    if let error = error as? StubServerError, case .server(let server) = error,
        let advice = server.addressInUseAdvice()
    {
        return "petmock: error: \(error); \(advice)"
    }
    return "petmock: error: \(error)"
}
