import ArgumentKit

let tool = CommandLineTool(
    name: "petcontract",
    abstract: "Contracts from the Codable models; drift verification of a live API or stubs.",
    subcommands: [Commands.generate, Commands.verify, Commands.diff])
await tool.main()
