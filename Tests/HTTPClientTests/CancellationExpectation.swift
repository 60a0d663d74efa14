import HTTPCore
import Testing

/// Checks that a transfer's task ended as cancelled: failed with an `HTTPClientError` of kind
/// `.cancelled`.
func expectCancelled(
    _ result: Result<HTTPClientResponse, any Error>, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard case .failure(let error as HTTPClientError) = result else {
        Issue.record("expected a cancellation error, got \(result)", sourceLocation: sourceLocation)
        return
    }
    #expect(error.kind == .cancelled, sourceLocation: sourceLocation)
}
