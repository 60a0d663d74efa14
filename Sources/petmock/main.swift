import ArgumentKit

// Subcommands in help order.
let petmock = CommandLineTool(
    name: "petmock",
    abstract: "A WireMock-compatible stub server with every broken variant of the API.",
    subcommands: [
        ServeCommand.subcommand, RecordCommand.subcommand, ValidateCommand.subcommand, VariantsCommand.subcommand,
    ])
await petmock.main()
