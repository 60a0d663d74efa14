import HTTPCore
import MockEngine

/// A verification that failed: how many requests matched against how many were expected, what
/// was requested, the requests petmock refused, and the near-miss report of the requests no
/// stub answered.
public struct StubVerificationError: Error, Sendable, CustomStringConvertible {
    /// What was expected, such as `exactly 1 request matching GET /api/items`.
    public let expectation: String
    /// How many journaled requests matched.
    public let matched: Int
    /// Every journaled request, as `METHOD URL`, oldest first.
    public let received: [String]
    /// The near-miss report of the unmatched requests (``Admin/unmatchedReport()``); empty
    /// when every request matched a stub.
    public let nearMisses: String
    /// The pattern could not be compiled: what is wrong with it.
    public let invalidPattern: String?
    /// The requests petmock refused (``StubSession/requestProblems``), one line each:
    /// `GET /api/pets: Unknown variant 'nope': ...`.
    public let refused: [String]
    /// Whether the count was as expected (the verification failed for the refusals alone).
    public let countMet: Bool

    /// Creates an error.
    public init(
        expectation: String, matched: Int, received: [String], nearMisses: String, invalidPattern: String?,
        refused: [String] = [], countMet: Bool = false
    ) {
        self.expectation = expectation
        self.matched = matched
        self.received = received
        self.nearMisses = nearMisses
        self.invalidPattern = invalidPattern
        self.refused = refused
        self.countMet = countMet
    }

    public var description: String {
        if let invalidPattern { return "Cannot verify \(expectation): \(invalidPattern)" }
        var lines = [
            countMet
                ? "Expected \(expectation), found \(matched), but petmock refused requests it could not answer as asked"
                : "Expected \(expectation), found \(matched)"
        ]
        lines.append(received.isEmpty ? "No requests were made." : "Requests made, oldest first:")
        lines += received.map { "  " + $0 }
        if !refused.isEmpty {
            lines +=
                ["Requests petmock refused (a 400 of its own) or whose stub's state change it refused:"]
                + refused.map { "  " + $0 }
        }
        if !nearMisses.isEmpty { lines += ["", nearMisses] }
        // Requests come from the code under test: escaped before they reach a terminal or a CI log.
        return TerminalText.escapeEachLine(lines.joined(separator: "\n"))
    }
}
