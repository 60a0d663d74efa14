extension Admin {
    /// Starts recording (WireMock's `POST /__admin/recordings/start`): from now on every
    /// request is forwarded to `configuration.targetBaseURL`, answered with the live response,
    /// and recorded; with ``RecordingConfiguration/persist`` each mapping is written to the
    /// stub folder at once. `outputIDs` makes ``stopRecording()``'s HTTP form list ids only.
    public func startRecording(_ configuration: RecordingConfiguration, outputIDs: Bool = false) throws(AdminError) {
        do throws(RecordingError) {
            guard let target = configuration.targetBaseURL else {
                throw RecordingError.invalidTarget("", reason: "a recording needs 'targetBaseUrl'")
            }
            try RecordingConfiguration.validateTarget(target)
            if engine.recording.status == .recording, let running = engine.recording.current() {
                throw RecordingError.alreadyRecording(target: running.target)
            }
            let publish = engine.publish
            let recorder = try Recorder(
                configuration: configuration, stubsDirectory: engine.store.loader?.root,
                onEvent: { publish(.recording($0)) })
            try engine.recording.start(target: target, recorder: recorder, outputIDs: outputIDs)
        } catch {
            throw .recording(error)
        }
    }

    /// Stops recording (`POST /__admin/recordings/stop`): the recorded mappings are written
    /// (again, if a write had failed), start serving, and are returned. Requests still
    /// waiting for the live API when this is called are not recorded; wait for
    /// ``proxiedRequestsFinished()`` first to include them.
    @discardableResult
    public func stopRecording() throws(AdminError) -> RecordingResult {
        try finishRecording().result
    }

    /// Stops recording; also says whether the start asked for ids only.
    package func finishRecording() throws(AdminError) -> (result: RecordingResult, outputIDs: Bool) {
        let stopped: (recorder: Recorder, outputIDs: Bool)
        do {
            stopped = try engine.recording.stop()
        } catch {
            throw .recording(error)
        }
        let result = stopped.recorder.finish()
        adopt(result)
        return (result, stopped.outputIDs)
    }

    /// Whether a recording is running, has run, or never started.
    public var recordingStatus: RecordingStatus { engine.recording.status }

    /// Records what the journal holds (`POST /__admin/recordings/snapshot`): every request
    /// that was proxied to the live API (while recording, or unmatched with
    /// `proxyUnmatched`) becomes a mapping, as a recording would have made it.
    @discardableResult
    public func snapshotRecording(
        _ configuration: RecordingConfiguration = RecordingConfiguration(repeatsAsScenarios: true)
    ) throws(AdminError) -> RecordingResult {
        let publish = engine.publish
        let recorder: Recorder
        do {
            recorder = try Recorder(
                configuration: configuration, stubsDirectory: engine.store.loader?.root,
                onEvent: { publish(.recording($0)) })
        } catch {
            throw .recording(error)
        }
        for entry in engine.journal.entries() {
            guard let upstream = entry.upstream else { continue }
            recorder.record(
                RecordedExchange(
                    method: entry.method, url: entry.url, headers: entry.headers, body: entry.body, upstream: upstream))
        }
        let result = recorder.finish()
        adopt(result)
        return result
    }

    /// Suspends until no request is waiting for the live API (each is recorded by then).
    public func proxiedRequestsFinished() async {
        await engine.proxy.drained()
    }

    /// Makes recorded mappings serve: files written are read again (so the server holds what
    /// the disk holds); mappings not written are added in memory.
    private func adopt(_ result: RecordingResult) {
        let store = engine.store
        for mapping in result.mappings { _ = store.remove(id: mapping.id) }
        for file in result.mappingFiles {
            if let event = store.reloadFile(file) { engine.publish(event) }
        }
        let serving = Set(store.snapshot().index.all.map(\.mapping.id))
        for mapping in result.mappings where !serving.contains(mapping.id) {
            _ = store.add(mapping)
        }
    }
}
