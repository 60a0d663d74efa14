import ArgumentKit

// Subcommands in help order; `record` joins this list when the recorder lands.
let petmock = CommandLineTool(
    name: "petmock",
    abstract: "A WireMock-compatible stub server with every broken variant of the API.",
    subcommands: [ServeCommand.subcommand, ValidateCommand.subcommand, VariantsCommand.subcommand])
await petmock.main()
