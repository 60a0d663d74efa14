import MockCLI
import TestSupport
import Testing

/// petmock's `--help`: one exit-code block per command, true for that command.
@Suite struct PetmockHelpTests {
    @Test func eachHelpHasOneExitCodeBlock() {
        for subcommand in MockTool(contract: nil).tool.subcommands {
            let help = subcommand.spec.help
            #expect(help.components(separatedBy: "EXIT CODES").count == 2, "\(help)")
            #expect(!help.contains("Exit codes:"), "\(help)")
        }
    }
}

/// A usage mistake with the real binary: one line, the suggestion, where the help is, exit 64.
@Suite struct PetmockUsageErrorTests {
    @Test(arguments: [
        (["serve", "--prot", "8080"], "Unknown option '--prot' (did you mean '--port'?); see 'petmock serve --help'"),
        (["serv"], "Unknown subcommand 'serv' (did you mean 'serve'?); see 'petmock --help'"),
    ])
    func aMistakeIsOneLineWithTheSuggestion(arguments: [String], expected: String) async throws {
        let result = try await ToolProcess.run("petmock", arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "petmock: error: \(expected)\n", "\(result.stderr)")
    }
}
