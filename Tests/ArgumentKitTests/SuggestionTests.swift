import Testing

@testable import ArgumentKit

/// A mistyped option or subcommand names the nearest valid one, in one line with where the
/// help is, and never the whole usage.
@Suite struct SuggestionTests {
    static let spec = CommandSpec(
        name: "petmock serve", abstract: "Serves.",
        arguments: [
            .option("port", value: "PORT", help: "The port."), .option("stubs", value: "DIR", help: "The stubs."),
            .flag("watch", help: "Watch."),
        ])

    @Test(arguments: [("--prot", "--port"), ("--wacth", "--watch"), ("--stub", "--stubs"), ("--PORT", "--port")])
    func aMistypedOptionSuggestsTheNearest(typed: String, meant: String) {
        do {
            _ = try Self.spec.parse([typed, "1"])
            Issue.record("parsed '\(typed)'")
        } catch {
            #expect("\(error)" == "Unknown option '\(typed)' (did you mean '\(meant)'?)")
        }
    }

    @Test func anOptionNothingLikeAnyOtherSuggestsNothing() {
        #expect(throws: ArgumentError.unknownOption("--verbose")) { try Self.spec.parse(["--verbose"]) }
    }

    @Test func aMistypedSubcommandSuggestsTheNearest() {
        let known = ["serve", "record", "validate", "variants"]
        #expect("\(ArgumentError.unknownSubcommand("serv", known: known))".contains("did you mean 'serve'?"))
        #expect("\(ArgumentError.unknownSubcommand("validat", known: known))".contains("did you mean 'validate'?"))
        #expect("\(ArgumentError.unknownSubcommand("zzz", known: known))".contains("expected one of: serve"))
    }

    @Test func aUsageErrorIsOneLineWithWhereTheHelpIs() {
        let tool = CommandLineTool(
            name: "petmock", abstract: "Stubs.", subcommands: [.init(verb: "serve", spec: Self.spec) { _ in .success }])
        let line = tool.errorLine(.unknownOption("--prot", suggestion: "--port"), verb: "serve")
        #expect(
            line == "petmock: error: Unknown option '--prot' (did you mean '--port'?); see 'petmock serve --help'")
        #expect(!line.contains("\n") && !line.contains("Usage"))
        let hostile = tool.errorLine(.unknownOption("--x\u{1B}[2J\nforged", suggestion: nil), verb: "serve")
        #expect(!hostile.contains("\u{1B}") && !hostile.contains("\n"), "\(hostile)")
    }
}
