import StubFormat

/// Why an admin operation did not happen.
public enum AdminError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No mapping has this id.
    case mappingNotFound(String)
    /// The id in `/__admin/mappings/{id}` is not a UUID, and no mapping has it (a 400, as in WireMock).
    case invalidMappingID(String)
    /// The id in `/__admin/requests/{id}` is not a UUID, so no request can have it (a 400 with
    /// WireMock's error code 10).
    case invalidRequestID(String)
    /// The mapping (or request pattern) has errors.
    case invalidMapping([StubProblem])
    /// No scenario has this name.
    case scenarioNotFound(String)
    /// A mapping with this id exists already (WireMock refuses a second with the same id).
    case duplicateMappingID(String)
    /// The scenario has no such state.
    case unknownScenarioState(scenario: String, state: String, possible: [String])
    /// Saving needs a stub folder, and the server was started without one.
    case noStubFolder
    /// Writing a mapping file failed.
    case saveFailed(path: String, reason: String)
    /// Re-reading the stub folder failed.
    case reloadFailed(StubLoadError)
    /// Recording could not start or stop.
    case recording(RecordingError)
    /// The settings (`/__admin/settings`) have errors, or name a setting petmock does not implement.
    case invalidSettings([StubProblem])
    /// Body files need a stub folder, and the server serves mappings from memory only.
    case noFilesFolder
    /// The body file name is not one petmock will use (empty, `.` or `..`, a NUL byte, a folder).
    case invalidBodyFileName(String, reason: String)
    /// The body file name leads outside `__files/` (through a symbolic link, to `resolved`).
    case bodyFileOutsideFolder(String, resolved: String?)
    /// No body file by this name.
    case bodyFileNotFound(String)
    /// Listing or reading the body files would pass a bound (what, and the bound).
    case bodyFilesTooLarge(String)
    /// Reading, writing or removing a body file failed.
    case bodyFileFailed(action: String, path: String, reason: String)
    /// The state file (`--state-file`) refused a reset of the document's state.
    case stateNotReset(StateResetError)

    public var description: String {
        switch self {
        case .mappingNotFound(let id): "No mapping with id '\(id)'"
        case .invalidMappingID(let id): "Invalid stub mapping ID '\(id)': expected a UUID"
        case .invalidRequestID(let id): "\(id) is not a valid UUID"
        case .invalidMapping(let problems):
            "Invalid mapping: " + problems.filter(\.isError).map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        // WireMock's titles (its clients show them as they are).
        case .scenarioNotFound(let name): "Scenario \(name) does not exist"
        case .duplicateMappingID(let id): "Duplicate stub mapping ID: a mapping with id '\(id)' exists already"
        case .unknownScenarioState(let scenario, let state, _): "Scenario \(scenario) does not support state \(state)"
        case .noStubFolder: "The server has no stub folder to save mappings to"
        case .saveFailed(let path, let reason): "Cannot save '\(path)': \(reason)"
        case .reloadFailed(let error): "Cannot reload the stubs: \(error)"
        case .recording(let error): "\(error)"
        case .invalidSettings(let problems):
            "Invalid settings: "
                + problems.filter(\.isError).map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        case .noFilesFolder:
            "The server serves mappings from memory only: it has no stub folder, so no __files/ to list, "
                + "read or change"
        case .invalidBodyFileName(let name, let reason): "Invalid body file name '\(name)': \(reason)"
        case .bodyFileOutsideFolder(let name, let resolved):
            "Body file '\(name)' leads outside __files/" + (resolved.map { " (to '\($0)')" } ?? "")
        case .bodyFileNotFound(let name): "No body file '\(name)' in __files/"
        case .bodyFilesTooLarge(let what): what
        case .bodyFileFailed(let action, let path, let reason): "Cannot \(action) '\(path)': \(reason)"
        case .stateNotReset(let error): error.description
        }
    }

    /// The error's `title` in the admin API: WireMock's where its clients look for one, else
    /// the description.
    public var title: String {
        if case .duplicateMappingID = self { return "Duplicate stub mapping ID" }
        return description
    }

    /// WireMock's error code, where it has one (109, a duplicate stub mapping id; 10, a request
    /// id that is not a UUID).
    public var code: Int? {
        if case .duplicateMappingID = self { return 109 }
        if case .invalidRequestID = self { return 10 }
        return nil
    }

    /// What the title leaves out, for the error's `detail`.
    public var detail: String? {
        switch self {
        case .unknownScenarioState(_, _, let possible): "its states: " + possible.joined(separator: ", ")
        case .duplicateMappingID(let id): "a mapping with id '\(id)' exists already"
        default: nil
        }
    }
}
