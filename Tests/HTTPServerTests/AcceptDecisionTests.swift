import Testing

@testable import HTTPServerKit

/// What the loop does with an accepted socket, as values: an HTTPS listener never answers in
/// plain HTTP, neither when it refuses a client nor when the client's TLS session could not be
/// made (`SSL_new` failing, which no test can make happen on a real server).
@Suite struct AcceptDecisionTests {
    @Test(arguments: [(false, AcceptDecision.answerOverload), (true, .reset)])
    func aClientWithNoPlaceIsAnswered503OnlyOnAPlainListener(servesTLS: Bool, expected: AcceptDecision) {
        #expect(AcceptDecision.refusal(servesTLS: servesTLS) == expected)
    }

    @Test(arguments: [
        (false, false, AcceptDecision.servePlain),
        (true, true, .serveLayered),
        (true, false, .reset),
    ])
    func anHTTPSClientWithoutItsTLSSessionIsResetNotServedPlain(
        servesTLS: Bool, layerMade: Bool, expected: AcceptDecision
    ) {
        #expect(AcceptDecision.admission(servesTLS: servesTLS, layerMade: layerMade) == expected)
    }
}
