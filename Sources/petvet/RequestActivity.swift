import ArgumentKit
import EndpointKit
import HTTPCore
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// petvet's activity observer and error presenter: counts requests, draws a spinner on a
/// terminal while any are in flight, and prints failures to stderr.
final class RequestActivity: ActivityObserver, ErrorPresenter {
    private struct State {
        var started = 0
        var inFlight = 0
        var frame = 0
        var spinnerVisible = false
        var ticker: Task<Void, Never>?
    }

    private let showsSpinner: Bool
    private let state = Locked(State())
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    init(showsSpinner: Bool) {
        self.showsSpinner = showsSpinner
    }

    /// How many requests were started.
    var requestCount: Int { state.withLock { $0.started } }

    func requestStarted(_ request: HTTPClientRequest) {
        state.withLock {
            $0.started += 1
            $0.inFlight += 1
        }
    }

    func requestFinished(_ request: HTTPClientRequest, error: EndpointError?) {
        state.withLock { $0.inFlight -= 1 }
    }

    func present(_ error: EndpointError, for request: HTTPClientRequest) {
        printAbove(TerminalText.escape("petvet: \(request.method) \(error)"), toStandardError: true)
    }

    /// Starts redrawing the spinner (only on a terminal).
    func start() {
        guard showsSpinner else { return }
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                self?.draw()
                try? await Task.sleep(for: .milliseconds(80))
            }
        }
        state.withLock { $0.ticker = ticker }
    }

    /// Stops the spinner and clears its line.
    func stop() {
        let ticker = state.withLock { state -> Task<Void, Never>? in
            defer { state.ticker = nil }
            return state.ticker
        }
        ticker?.cancel()
        clearSpinner()
    }

    /// Prints a line, first clearing the spinner so the two do not mix.
    func printAbove(_ line: String, toStandardError: Bool) {
        clearSpinner()
        if toStandardError { writeError(line) } else { print(line) }
    }

    private func draw() {
        let text = state.withLock { state -> String in
            state.frame = (state.frame + 1) % Self.frames.count
            state.spinnerVisible = true
            return "\r\(Self.frames[state.frame]) fetching… \(state.started) requests, \(state.inFlight) in flight"
        }
        writeOut(text + "\u{1B}[K")
    }

    private func clearSpinner() {
        let visible = state.withLock { state -> Bool in
            defer { state.spinnerVisible = false }
            return state.spinnerVisible
        }
        if visible { writeOut("\r\u{1B}[K") }
    }

    private func writeOut(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Descriptor.write(1, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
        bytes.removeAll()
    }
}
