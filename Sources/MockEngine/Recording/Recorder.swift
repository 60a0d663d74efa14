import Platform
import StubFormat

/// Turns exchanges with the live API into WireMock mappings, one per distinct request (or a
/// scenario of them), and writes each to the stub folder as it is recorded, so stopping at
/// any moment (Ctrl-C included) loses nothing already answered.
///
/// The admin API's recorder (``Admin/startRecording(_:)``) and `petmock record` use one;
/// so can a test, through ``RecordingTransport``:
///
/// ```swift
/// let recorder = try Recorder(configuration: RecordingConfiguration(), stubsDirectory: "Stubs")
/// let transport = RecordingTransport(wrapping: CurlTransport(), recorder: recorder)
/// _ = try await transport.send(HTTPClientRequest(url: "http://127.0.0.1:8081/api/pets"))
/// let result = recorder.finish()        // result.mappingFiles: ["Stubs/mappings/get-api-pets.json"]
/// ```
public final class Recorder: Sendable {
    /// What is recorded and how.
    public let configuration: RecordingConfiguration
    /// The stub folder written to, or nil when mappings stay in memory.
    public let stubsDirectory: String?
    private let builder: RecordedMappingBuilder
    private let onEvent: (@Sendable (RecordingEvent) -> Void)?
    private let state: Locked<State>

    private struct State {
        var entries: [RecordingEntry] = []
        var index: [[UInt8]: Int] = [:]
        var slugs: Set<String> = []
        var writer: RecordedStubWriter?
        var collisions: [RecordingCollision] = []
        var ignoredRepeats = 0
        var unrecordedFailures = 0
        var finished = false
        /// Whether some request was answered otherwise than 404 (see `holdsNotFound`).
        var found = false
        var heldNotFound: [RecordedExchange] = []
        var repeatedPrefix: [String] = []
    }

    /// Creates a recorder; with a stub folder (and ``RecordingConfiguration/persist``) it
    /// prepares `mappings/` and `__files/` there, refusing a folder that leads elsewhere.
    /// `onEvent` hears every ``RecordingEvent`` (a log line each, say).
    public init(
        configuration: RecordingConfiguration, stubsDirectory: String?,
        onEvent: (@Sendable (RecordingEvent) -> Void)? = nil
    ) throws(RecordingError) {
        self.configuration = configuration
        self.stubsDirectory = configuration.persist ? stubsDirectory : nil
        builder = RecordedMappingBuilder(configuration: configuration)
        self.onEvent = onEvent
        var initial = State()
        if let directory = self.stubsDirectory { initial.writer = try RecordedStubWriter(root: directory) }
        state = Locked(initial)
    }

    /// Records one exchange (written at once when recording to a folder); returns what
    /// happened. Exchanges after ``finish()`` are ignored.
    @discardableResult
    public func record(_ exchange: RecordedExchange) -> [RecordingEvent] {
        let events = state.withLock { state -> [RecordingEvent] in
            guard !state.finished else { return [] }
            return admit(exchange, in: &state)
        }
        for event in events { onEvent?(event) }
        return events
    }

    /// The base-path and not-found rules, before an exchange is recorded: a 404 to a path that
    /// repeats the base path is never recorded; while nothing has been found, 404s are held.
    private func admit(_ exchange: RecordedExchange, in state: inout State) -> [RecordingEvent] {
        let notFound = exchange.upstream.response?.status.code == 404
        if notFound, let basePath = configuration.basePath, configuration.repeatsBasePath(exchange.url) {
            state.repeatedPrefix.append(exchange.label)
            return [.prefixRepeated(request: exchange.label, basePath: basePath)]
        }
        guard configuration.holdsNotFound, !state.found else { return record(exchange, in: &state) }
        if notFound {
            state.heldNotFound.append(exchange)
            return [.notFoundHeld(request: exchange.label)]
        }
        // A failure (no answer at all) says nothing of the base URL.
        guard exchange.upstream.response != nil else { return record(exchange, in: &state) }
        state.found = true
        let held = state.heldNotFound
        state.heldNotFound = []
        return (held + [exchange]).flatMap { record($0, in: &state) }
    }

    private func record(_ exchange: RecordedExchange, in state: inout State) -> [RecordingEvent] {
        let key = builder.key(for: exchange)
        let existing = state.index[key]
        if existing != nil && !configuration.repeatsAsScenarios {
            state.ignoredRepeats += 1
            return [.repeatIgnored(request: exchange.label)]
        }
        let step = existing.map { state.entries[$0].steps.count + 1 } ?? 1
        let id = Identifiers.stableUUID(of: step == 1 ? key : key + Array("\u{0}step \(step)".utf8))
        let name = step == 1 ? exchange.label : "\(exchange.label) #\(step)"
        guard
            let recorded = builder.mapping(
                for: exchange, id: id, name: name, extractBodies: state.writer != nil)
        else {
            let failure = exchange.upstream.failure
            // A cancelled request (the caller gave up) is no upstream failure: not counted.
            if failure?.kind != .cancelled { state.unrecordedFailures += 1 }
            let reason = failure.map { ProxyReply.message($0, url: exchange.upstream.url) }
            return [.failureNotRecorded(request: exchange.label, reason: reason ?? "an upstream failure")]
        }
        let position: Int
        if let existing {
            position = existing
            state.entries[position].steps.append(recorded)
            state.entries[position].isWritten = false
        } else {
            var slug = RecordingEntry.slug(method: exchange.method.rawValue, url: exchange.url)
            if state.slugs.contains(slug) {
                var number = 2
                while state.slugs.contains("\(slug)-\(number)") { number += 1 }
                slug = "\(slug)-\(number)"
            }
            state.slugs.insert(slug)
            position = state.entries.count
            state.entries.append(RecordingEntry(key: key, slug: slug, label: exchange.label, steps: [recorded]))
            state.index[key] = position
        }
        var events: [RecordingEvent] = []
        events += write(position, in: &state)
        let entry = state.entries[position]
        events.append(
            .recorded(
                request: exchange.label, status: exchange.upstream.reply.status, step: step,
                file: entry.isWritten ? entry.file : nil))
        return events
    }

    private func write(_ position: Int, in state: inout State) -> [RecordingEvent] {
        guard var writer = state.writer else { return [] }
        defer { state.writer = writer }
        switch writer.write(&state.entries[position]) {
        case .success(let collisions):
            state.collisions += collisions
            return collisions.map(RecordingEvent.collision)
        case .failure(let failure):
            return [.writeFailed(path: failure.path, reason: failure.reason)]
        }
    }

    /// The mappings recorded so far, as they are (or will be) written.
    public var mappings: [StubMapping] {
        state.withLock { state in Self.mappings(of: state) }
    }

    private static func mappings(of state: State) -> [StubMapping] {
        state.entries.flatMap(\.mappings)
    }

    /// Stops recording: writes again whatever could not be written before, and returns what
    /// was recorded. Later calls return the same.
    @discardableResult
    public func finish() -> RecordingResult {
        let (result, events) = state.withLock { state -> (RecordingResult, [RecordingEvent]) in
            var events: [RecordingEvent] = []
            if !state.finished {
                state.finished = true
                for position in state.entries.indices where !state.entries[position].isWritten {
                    events += write(position, in: &state)
                }
            }
            let written = state.entries.filter(\.isWritten).compactMap(\.file)
            let unwritten =
                state.writer == nil ? [] : state.entries.filter { !$0.isWritten }.map { $0.file ?? $0.label }
            let result = RecordingResult(
                mappings: Self.mappings(of: state), mappingFiles: written,
                bodyFiles: state.writer?.bodyFilesWritten ?? [], collisions: state.collisions,
                ignoredRepeats: state.ignoredRepeats, unrecordedFailures: state.unrecordedFailures,
                unwrittenFiles: unwritten, heldNotFound: state.heldNotFound, repeatedPrefix: state.repeatedPrefix)
            return (result, events)
        }
        for event in events { onEvent?(event) }
        return result
    }
}
