import HTTPCore
import HTTPHandlerKit

/// An incremental HTTP/1.1 request parser (RFC 9112): a value that is fed bytes as they
/// arrive, in pieces of any size, and reports the head, body pieces and end of each request.
///
/// The parser keeps only what it must between calls: a head split across reads, and the
/// position inside a body or chunk. Body pieces are reported as ranges of the caller's
/// buffer, so nothing is copied.
///
/// ```swift
/// var parser = HTTPRequestParser()
/// var offset = 0
/// while true {
///     let step = try bytes.withUnsafeBytes { try parser.parse(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
///     offset += step.consumed
///     guard let event = step.event else { break }  // all input consumed, need more
///     // handle .head(parsed), .body(range), .end
/// }
/// ```
package struct HTTPRequestParser: Sendable {
    /// What one parse step found.
    package enum Event: Sendable, Hashable {
        /// A complete request head.
        case head(HTTPParsedHead)
        /// A piece of body: this range of the buffer passed to the call that returned it.
        case body(Range<Int>)
        /// The end of the current request; the next bytes start a new request.
        case end
    }

    /// The result of one call to ``parse(_:)``.
    package struct Step: Sendable, Hashable {
        /// How many bytes of the buffer were used; the caller passes the rest next time.
        package var consumed: Int
        /// The event found, or nil when every byte was used and more input is needed.
        package var event: Event?
    }

    enum State: Sendable {
        case head
        case endPending
        case body(remaining: Int)
        case chunkLine
        case chunkData(remaining: Int)
        case chunkDataEnd(sawCR: Bool)
        case trailers
        case failed(HTTPParserError)
    }

    enum ChunkLinePhase: Sendable {
        case digits, afterDigits, fileExtension, sawCR
    }

    /// The limits this parser enforces.
    package let limits: HTTPParserLimits
    var state: State = .head

    // A head that arrived in more than one piece is collected here; `lineStart` and the
    // request-line fields are positions in that buffer followed by the current input.
    var headBuffer: [UInt8] = []
    var lineStart = 0
    var requestLineEnd = 0
    var requestLineDone = false

    var bodyReceived = 0
    var chunkSize = 0
    var chunkDigits = 0
    var chunkLineLength = 0
    var chunkLinePhase = ChunkLinePhase.digits
    var trailerBytes = 0
    var trailerLineLength = 0

    /// Creates a parser with the given limits.
    package init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Whether the parser is between requests with nothing buffered: no bytes of a next
    /// request have been seen.
    package var isIdle: Bool {
        if case .head = state { return headBuffer.isEmpty }
        return false
    }

    /// Whether a head has been partly received but not completed.
    package var isReadingHead: Bool {
        if case .head = state { return !headBuffer.isEmpty }
        return false
    }

    /// Parses as much of `input` as it can, up to and including the next event.
    ///
    /// Call again with the unconsumed rest until the step has no event. After an error the
    /// parser stays failed and throws the same error again.
    package mutating func parse(_ input: UnsafeRawBufferPointer) throws(HTTPParserError) -> Step {
        do {
            return try parseUnchecked(input)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func parseUnchecked(_ input: UnsafeRawBufferPointer) throws(HTTPParserError) -> Step {
        var offset = 0
        while true {
            let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
            switch state {
            case .failed(let error):
                throw error
            case .endPending:
                resetForNextRequest()
                return Step(consumed: offset, event: .end)
            case .head:
                let step = try parseHeadBytes(rest)
                return Step(consumed: offset + step.consumed, event: step.event)
            case .body(let remaining):
                guard !rest.isEmpty else { return Step(consumed: offset, event: nil) }
                let count = min(remaining, rest.count)
                state = count == remaining ? .endPending : .body(remaining: remaining - count)
                return Step(consumed: offset + count, event: .body(offset..<offset + count))
            case .chunkData(let remaining):
                guard !rest.isEmpty else { return Step(consumed: offset, event: nil) }
                let count = min(remaining, rest.count)
                state = count == remaining ? .chunkDataEnd(sawCR: false) : .chunkData(remaining: remaining - count)
                return Step(consumed: offset + count, event: .body(offset..<offset + count))
            case .chunkLine:
                let used = try parseChunkLine(rest)
                offset += used
                if case .chunkLine = state { return Step(consumed: offset, event: nil) }
            case .chunkDataEnd(let sawCR):
                guard let byte = rest.first else { return Step(consumed: offset, event: nil) }
                offset += 1
                if byte == .cr && !sawCR {
                    state = .chunkDataEnd(sawCR: true)
                } else if byte == .lf {
                    state = .chunkLine
                } else {
                    throw .invalidChunkTerminator
                }
            case .trailers:
                let used = try parseTrailers(rest)
                offset += used
                if case .trailers = state { return Step(consumed: offset, event: nil) }
            }
        }
    }

    mutating func resetForNextRequest() {
        state = .head
        bodyReceived = 0
        chunkSize = 0
        chunkDigits = 0
        chunkLineLength = 0
        chunkLinePhase = .digits
        trailerBytes = 0
        trailerLineLength = 0
    }

    /// Everything one buffer produces, with body pieces copied out: a convenience for tests
    /// and tools. Body pieces are reported as they were found, so a split body gives several.
    package mutating func parseAll(_ bytes: [UInt8]) throws(HTTPParserError) -> [Output] {
        var outputs: [Output] = []
        var offset = 0
        while true {
            let start = offset
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(HTTPParserError) in try parse(UnsafeRawBufferPointer(rebasing: buffer[start...])) }
            }
            let step = try result.get()
            defer { offset += step.consumed }
            switch step.event {
            case nil: return outputs
            case .head(let head): outputs.append(.head(head))
            case .body(let range):
                outputs.append(.body(Array(bytes[(offset + range.lowerBound)..<(offset + range.upperBound)])))
            case .end: outputs.append(.end)
            }
        }
    }

    /// An event of ``parseAll(_:)``, holding its body bytes.
    package enum Output: Sendable, Hashable {
        /// A complete request head.
        case head(HTTPParsedHead)
        /// A piece of body.
        case body([UInt8])
        /// The end of a request.
        case end
    }
}

extension UInt8 {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")
}
