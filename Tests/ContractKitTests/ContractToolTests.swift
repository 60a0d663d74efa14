import ContractCLI
import ContractKit
import PetAppContract
import Testing

/// The command line as a library: a tool with no contract built in works from files only, and
/// says what to do instead of checking nothing.
@Suite struct ContractToolTests {
    @Test func aToolWithoutAContractNeedsAContractFile() async {
        let tool = ContractTool(name: "my-contract", contract: nil)
        #expect(await tool.run(["generate", "-o", "-"]) == .couldNotRun)
        #expect(await tool.run(["verify", "--stub", "Stubs"]) == .couldNotRun)
        #expect(
            await tool.run(["verify", "--stub", "Stubs", "--contract", "Contracts/petapi.openapi.json"]) == .success)
        #expect(tool.tool.help.contains("Drift verification of a live API or stubs against OpenAPI contracts."))
    }

    @Test func aToolWithTheAppsContractNamesTheApp() async {
        let tool = ContractTool(contract: PetApp.contract)
        #expect(tool.tool.help.contains("Contracts from Pet API's Codable models"))
        #expect(await tool.run(["verify", "--stub", "Stubs"]) == .success)
        #expect(await tool.run(["verify", "--bogus"]) == .usage)
    }

    /// Every `--help` has one exit-code block, and it is true for its command: `generate`
    /// checks nothing, so it never exits 1.
    @Test func eachHelpHasOneExitCodeBlockTrueForItsCommand() {
        let tool = ContractTool(contract: PetApp.contract).tool
        for subcommand in tool.subcommands {
            let help = subcommand.spec.help
            #expect(help.components(separatedBy: "EXIT CODES").count == 2, "\(help)")
            #expect(!help.lowercased().contains("exit codes:") || help.contains("EXIT CODES:"), "\(help)")
        }
        let generate = tool.subcommands.first { $0.verb == "generate" }?.spec.help ?? ""
        #expect(generate.contains("EXIT CODES: 0 ") && !generate.contains(" 1 "), "\(generate)")
    }
}
