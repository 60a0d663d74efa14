// swift-tools-version:6.2
import PackageDescription

// Every Swift target builds in Swift 6 mode with strict concurrency and warnings as errors, and
// lists every module it imports (none is reached only through another).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

func library(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: strict)
}

func tool(_ name: String, _ dependencies: [Target.Dependency], path: String? = nil) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: path, swiftSettings: strict)
}

func tests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies, exclude: exclude, swiftSettings: strict)
}

/// What another package can depend on: every library a user imports, and the two tools.
let libraries = [
    "HTTPCore", "HTTPServer", "HTTPClient", "LinearRegex", "JSONKit", "YAMLKit", "ArgumentKit", "ContractModel",
    "ContractKit",
    "ContractCLI",
    "Templating", "StubServer", "PetModels", "PetClient", "PetAppContract",
]

let package = Package(
    name: "petkit",
    platforms: [.macOS(.v15)],
    products: libraries.map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "petmock", targets: ["petmock"]),
        .executable(name: "petcontract", targets: ["petcontract"]),
        .executable(name: "petapi", targets: ["petapi"]),
        .executable(name: "petvet", targets: ["petvet"]),
    ],
    targets: [
        // C libraries from Debian packages, and a few C helpers for system calls.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        .target(name: "CSystem"),

        // What the system offers, behind one interface: today the lock every module uses.
        library("Platform"),

        // HTTP: shared types, the epoll server, the libcurl client.
        library("HTTPCore"),
        library("HTTPServer", ["HTTPCore", "Platform", "CSystem", "CZlib"]),
        library("HTTPClient", ["HTTPCore", "Platform", "CCurl", "CZlib"]),
        library("LinearRegex"),
        library("JSONKit", ["LinearRegex"]),
        library("YAMLKit", ["CYAML", "JSONKit"]),
        library("ArgumentKit"),

        // Handlebars templates (petmock's response templating).
        library("Templating", ["JSONKit", "LinearRegex", "HTTPCore", "Platform"]),

        // Contracts: the model and endpoint vocabulary an app adopts, the engine, its command line.
        library("ContractModel"),
        library("ContractKit", ["ContractModel", "JSONKit", "LinearRegex", "YAMLKit", "HTTPClient", "HTTPCore"]),
        library("ContractCLI", ["ContractKit", "ArgumentKit", "HTTPClient", "HTTPCore"]),

        // The stub server (petmock's engine, admin API and recorder).
        library(
            "StubServer",
            ["HTTPServer", "HTTPCore", "HTTPClient", "JSONKit", "LinearRegex", "Platform", "CSystem", "Templating"]),

        // The pet app: its models, its client (endpoints, service, view models), its contract.
        library("PetModels", ["ContractModel"]),
        library("PetClient", ["ContractModel", "HTTPClient", "HTTPCore", "JSONKit", "PetModels"]),
        library("PetAppContract", ["ContractKit", "JSONKit", "PetClient", "PetModels"]),

        // The reference live API on SQLite.
        library("PetAPIServer", ["CSQLite", "HTTPServer", "HTTPCore", "JSONKit", "Platform"]),

        // The four tools.
        tool(
            "petmock",
            ["StubServer", "HTTPServer", "HTTPCore", "HTTPClient", "ContractKit", "PetAppContract", "ArgumentKit"]),
        tool("petcontract", ["ContractCLI", "PetAppContract"]),
        tool("petapi", ["PetAPIServer", "HTTPServer", "ArgumentKit"]),
        tool("petvet", ["PetClient", "HTTPClient", "HTTPCore", "ArgumentKit", "Platform"]),

        // Helpers for tests: processes, raw sockets, temporary folders.
        library("TestSupport"),

        // Benchmark executables (Benchmarks/*.sh run them).
        tool("ServerBench", ["HTTPServer", "HTTPCore"], path: "Benchmarks/ServerBench"),
        tool("ClientBench", ["PetClient", "HTTPClient", "PetModels"], path: "Benchmarks/ClientBench"),
        tool("contract-bench", ["ContractKit", "JSONKit", "PetAppContract"], path: "Benchmarks/ContractBench"),

        tests("HTTPCoreTests", ["HTTPCore"]),
        tests("ArgumentKitTests", ["ArgumentKit"]),
        tests("JSONKitTests", ["JSONKit"]),
        tests("TemplatingTests", ["Templating", "JSONKit", "HTTPCore"]),
        tests("YAMLKitTests", ["YAMLKit", "JSONKit"]),
        tests("PetModelsTests", ["PetModels", "ContractModel"]),
        tests("HTTPServerTests", ["HTTPServer", "HTTPCore", "CSystem", "CZlib", "TestSupport"]),
        tests("HTTPClientTests", ["HTTPClient", "HTTPCore", "HTTPServer", "TestSupport"]),
        tests("PetClientTests", ["PetClient", "HTTPClient", "HTTPCore", "PetModels", "ContractModel"]),
        tests(
            "PetvetTests", ["petvet", "PetClient", "HTTPClient", "HTTPServer", "HTTPCore", "PetModels", "TestSupport"]),
        tests(
            "ContractKitTests",
            [
                "ContractKit", "ContractCLI", "JSONKit", "ContractModel", "PetModels", "PetClient", "PetAppContract",
                "HTTPClient", "HTTPCore",
            ],
            exclude: ["Snapshots", "Fixtures"]),
        tests("PetContractCLITests", ["petcontract", "TestSupport"]),
        tests(
            "StubServerTests",
            ["StubServer", "HTTPServer", "HTTPCore", "JSONKit", "LinearRegex", "TestSupport", "Templating"]),
        tests(
            "RecordingTests",
            [
                "StubServer", "HTTPServer", "HTTPCore", "HTTPClient", "JSONKit", "ContractKit", "PetAppContract",
                "PetAPIServer", "TestSupport", "petmock",
            ]),
        tests("PetAPIServerTests", ["PetAPIServer", "HTTPServer", "HTTPClient", "HTTPCore", "JSONKit"]),
        tests("EndToEndTests", ["TestSupport", "PetClient", "HTTPClient", "HTTPCore", "JSONKit", "PetModels"]),
        tests("HardeningTests", ["TestSupport", "CSystem", "HTTPServer", "HTTPCore", "JSONKit"]),
    ],
    swiftLanguageModes: [.v6]
)
