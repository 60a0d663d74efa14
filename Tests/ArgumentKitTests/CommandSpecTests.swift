import Testing

@testable import ArgumentKit

@Suite struct CommandSpecTests {
    let spec = CommandSpec(
        name: "petmock serve", abstract: "Serve stubs.",
        arguments: [
            .option("stubs", value: "DIR", default: "Stubs", help: "The stub root."),
            .option("port", short: "p", value: "PORT", default: "8080", help: "The port."),
            .option("variant", repeatable: true, help: "A variant."),
            .flag("watch", help: "Reload on change."),
            .positional("extra", optional: true, help: "Something optional."),
        ])

    @Test func parsesOptionsFlagsAndPositionals() throws {
        let parsed = try spec.parse(["--stubs=Other", "-p", "9000", "--watch", "--variant", "a", "--variant", "b", "x"])
        #expect(parsed.value("stubs") == "Other")
        #expect(try parsed.int("port", in: 0...65535) == 9000)
        #expect(parsed.flag("watch"))
        #expect(parsed.values("variant") == ["a", "b"])
        #expect(parsed.value("extra") == "x")
    }

    @Test func defaultsApplyWhenAbsent() throws {
        let parsed = try spec.parse([])
        #expect(parsed.value("stubs") == "Stubs")
        #expect(!parsed.isPresent("stubs"))
        #expect(!parsed.flag("watch"))
        #expect(parsed.value("extra") == nil)
    }

    @Test func errorsNameTheProblem() {
        #expect(throws: ArgumentError.unknownOption("--nope")) { try spec.parse(["--nope"]) }
        #expect(throws: ArgumentError.missingValue(option: "--stubs")) { try spec.parse(["--stubs"]) }
        #expect(throws: ArgumentError.duplicateOption("--port")) { try spec.parse(["-p", "1", "-p", "2"]) }
        #expect(throws: ArgumentError.unexpectedArgument("y")) { try spec.parse(["x", "y"]) }
        #expect(
            throws: ArgumentError.invalidValue(
                option: "--port", value: "abc", expected: "a whole number from 0 to 65535")
        ) {
            try spec.parse(["--port", "abc"]).int("port", in: 0...65535)
        }
    }

    @Test func usageAndHelpListArguments() {
        #expect(spec.usage.hasPrefix("petmock serve [--stubs DIR] [--port PORT]"))
        #expect(spec.help.contains("--watch"))
        #expect(spec.help.contains("(default: Stubs)"))
    }

    @Test func toolRejectsUnknownSubcommandWithUsageCode() async {
        let tool = CommandLineTool(
            name: "petmock", abstract: "Stub server.",
            subcommands: [.init(verb: "serve", spec: spec) { _ in .success }])
        #expect(await tool.run(["serve"]) == .success)
        #expect(await tool.run(["bogus"]) == .usage)
        #expect(await tool.run(["serve", "--bogus"]) == .usage)
    }
}
