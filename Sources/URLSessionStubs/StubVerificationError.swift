import HTTPCore
import MockEngine

/// A verification that failed: how many requests matched against how many were expected, what
/// was requested, and the near-miss report of the requests no stub answered.
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

    public var description: String {
        if let invalidPattern { return "Cannot verify \(expectation): \(invalidPattern)" }
        var lines = ["Expected \(expectation), found \(matched)"]
        lines.append(received.isEmpty ? "No requests were made." : "Requests made, oldest first:")
        lines += received.map { "  " + $0 }
        if !nearMisses.isEmpty { lines += ["", nearMisses] }
        // Requests come from the code under test: escaped before they reach a terminal or a CI log.
        return TerminalText.escapeEachLine(lines.joined(separator: "\n"))
    }
}
