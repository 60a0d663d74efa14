import HTTPCore
import Testing

@testable import ArgumentKit

/// What every petkit tool shares: `--version`, required options, help that fits, base URLs
/// checked as usage errors, one-command tools with the same handling as the others.
@Suite struct ToolConsistencyTests {
    static let spec = CommandSpec(
        name: "tool run", abstract: "Runs.",
        arguments: [
            .option("base-url", value: "URL", required: true, help: "Where."),
            .option(
                "a-rather-long-option-name", value: "SOMETHING",
                help: "A help text long enough that it has to be wrapped onto a second line under its own column "
                    + "rather than running off the edge of a terminal that is a hundred columns wide."),
        ])

    @Test func requiredOptionsAreRefusedWhenAbsentAndShownWithoutBrackets() throws {
        #expect(throws: ArgumentError.missingOption("--base-url <url>")) { try Self.spec.parse([]) }
        #expect(try Self.spec.parse(["--base-url", "http://h"]).value("base-url") == "http://h")
        #expect(Self.spec.usage.hasPrefix("tool run --base-url URL [--a-rather-long-option-name SOMETHING]"))
    }

    @Test func helpLinesFitAndWrapUnderTheirColumn() {
        let lines = Self.spec.help.split(separator: "\n", omittingEmptySubsequences: false)
        let options = lines.drop { !$0.hasPrefix("OPTIONS:") }
        #expect(options.allSatisfy { $0.count <= 100 }, "\(options.filter { $0.count > 100 })")
        let indent = String(repeating: " ", count: 28)
        #expect(lines.contains { $0.hasPrefix(indent) && $0.dropFirst(28).first != " " }, "a wrapped line")
        #expect(Self.spec.help.contains("64 usage error"))
    }

    @Test(arguments: [
        ("", false), ("127.0.0.1:8080/api", false), ("http://", false), ("http://:80/api", false),
        ("ftp://host/api", false), ("http://host/a b", false), ("http://host/\u{1B}[2J", false),
        ("http://127.0.0.1:8080/api", true), ("HTTPS://api.example.com", true),
    ])
    func baseURLsAreCheckedAsUsage(value: String, valid: Bool) throws {
        let parsed = try Self.spec.parse(["--base-url", value])
        if valid {
            #expect(try parsed.httpURL("base-url") == value)
        } else {
            #expect(throws: ArgumentError.self) { try parsed.httpURL("base-url") }
        }
    }

    @Test func versionAndUsageCodesForToolsOfOneAndOfManyCommands() async {
        let single = CommandLineTool.single(Self.spec) { _ in .success }
        #expect(await single.run(["--version"]) == .success)
        #expect(await single.run([]) == .usage)
        #expect(await single.run(["--base-url", "http://h"]) == .success)
        let many = CommandLineTool(
            name: "tool", abstract: "Tools.", subcommands: [.init(verb: "run", spec: Self.spec) { _ in .failure }])
        #expect(await many.run(["--version"]) == .success)
        #expect(await many.run([]) == .usage)
        #expect(await many.run(["run", "--base-url", "http://h"]) == .failure)
        #expect(many.help.contains("--version") && many.help.contains("64 usage error"))
        #expect(many.version == petkitVersion)
    }
}
