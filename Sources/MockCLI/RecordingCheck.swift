import APISchema
import ArgumentKit
import ContractKit
import MockEngine
import StubServerKit

/// After recording: prints what was written and checks the recorded mappings against the
/// contract (as `petcontract verify --stub` would), so drift shows at once.
struct RecordingCheck {
    let directory: String
    let contractFile: String?
    /// The contract built into the tool, used when no file is given.
    let builtIn: ConsumerContract?
    let enabled: Bool

    /// Prints the summary and the check; returns the exit code.
    func report(_ result: RecordingResult) -> ExitCode {
        let mappings = result.mappings.count
        let files = result.mappingFiles.count
        var line =
            "petmock: recorded \(mappings) mapping\(mappings == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")"
        line += " into \(directory)"
        if !result.bodyFiles.isEmpty { line += " (\(result.bodyFiles.count) body files in __files/)" }
        writeOutput(line)
        if result.ignoredRepeats > 0 {
            writeOutput(
                "petmock: \(result.ignoredRepeats) repeated requests kept their first answer (--scenarios records them)"
            )
        }
        if result.unrecordedFailures > 0 {
            writeOutput(
                "petmock: \(result.unrecordedFailures) upstream failures were passed on but not recorded "
                    + "(--record-failures records them)")
        }
        for collision in result.collisions { writeOutput("petmock: \(collision)") }
        for shadow in shadows(of: result) { writeOutput(shadow.problem.description) }
        for file in result.unwrittenFiles { writeError("petmock: error: could not write \(file)") }
        guard result.unwrittenFiles.isEmpty else { return .couldNotRun }
        guard enabled, !result.mappingFiles.isEmpty else { return .success }
        let source = ContractSource(file: contractFile, builtIn: builtIn)
        let loaded: (contract: Contract, models: ModelRegistry)
        do {
            loaded = try source.load()
        } catch {
            writeError("petmock: error: cannot check the recording: \(error)")
            return .couldNotRun
        }
        let mappingsPrefix = directory.hasSuffix("/") ? directory + "mappings/" : directory + "/mappings/"
        let relative = result.mappingFiles.map {
            $0.hasPrefix(mappingsPrefix) ? String($0.dropFirst(mappingsPrefix.count)) : $0
        }
        let report = StubVerifier(contract: loaded.contract, models: loaded.models).verify(
            directory: directory, contractName: source.name, mappingFiles: relative)
        writeOutput("petmock: checking what was recorded against the contract (\(source.name)):")
        var rendered = ReportRenderer(color: false).render(report, as: .text)
        while rendered.hasSuffix("\n") { rendered.removeLast() }
        writeOutput(rendered)
        return report.outcome(strict: false) == .failed ? .failure : .success
    }

    /// The recorded mappings that never answer because another mapping in the folder goes
    /// first (a hand-written stub for the same request, say), and the mappings the
    /// recording hides.
    private func shadows(of result: RecordingResult) -> [StubShadow] {
        guard !result.mappingFiles.isEmpty, let report = try? StubLoader(root: directory).load() else { return [] }
        let recorded = Set(result.mappingFiles)
        return report.shadows.filter { recorded.contains($0.shadowed.file) || recorded.contains($0.winner.file) }
    }
}
