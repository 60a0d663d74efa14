// `run(_:)` answers an `ExitCode` (ArgumentKit's one public type), which a test of the tool
// names.
@_exported import ArgumentKit
