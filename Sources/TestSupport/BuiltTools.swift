import Foundation

/// Where the package's executables are: the build folder holding the test bundle, because
/// `swift build --build-tests` builds the tools next to the tests.
package enum BuiltTools {
    /// The repository root (the folder holding Package.swift).
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The build folder, for example `.build/debug`.
    package static var binDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The path of a built tool, or a clear error when it has not been built.
    package static func path(of tool: String) throws(ToolError) -> String {
        let url = binDirectory.appendingPathComponent(tool)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw .notBuilt(tool: tool, expectedAt: url.path)
        }
        return url.path
    }
}

/// Why a tool could not be run or did not get ready.
package enum ToolError: Error, CustomStringConvertible {
    /// The executable is not in the build folder.
    case notBuilt(tool: String, expectedAt: String)
    /// The server exited or printed no URL before its time limit.
    case notReady(tool: String, output: String)

    package var description: String {
        switch self {
        case .notBuilt(let tool, let path): "no '\(tool)' at \(path): run 'swift build --build-tests' first"
        case .notReady(let tool, let output): "\(tool) did not report a listening URL; it printed:\n\(output)"
        }
    }
}
