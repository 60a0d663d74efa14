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

/// What another package can depend on: every library a user imports, and the four tools.
let libraries = [
    "HTTPCore", "HTTPServerKit", "HTTPClient", "LinearRegex", "JSONKit", "YAMLKit", "XMLKit", "ArgumentKit",
    "ContractModel",
    "ContractKit",
    "ContractCLI",
    "Templating", "StubFormat", "StubServerKit", "MockCLI", "PetModels", "PetClient", "PetAppContract",
    "URLSessionStubs",
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
        .systemLibrary(name: "CXML", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "CSystem"),
        .target(name: "CSpawn"),

        // What the system offers, behind one interface: the lock, pollers (epoll, poll), wake-up,
        // listener and socket calls, file watchers and the file system.
        library("Platform", ["CSystem"]),

        // HTTP: shared types, the epoll server, the libcurl client.
        library("HTTPCore"),
        library("HTTPServerKit", ["HTTPCore", "Platform", "CZlib"]),
        library("HTTPClient", ["HTTPCore", "Platform", "CCurl", "CZlib"]),
        library("LinearRegex"),
        library("JSONKit", ["LinearRegex"]),
        library("YAMLKit", ["CYAML", "JSONKit"]),
        library("XMLKit", ["CXML", "LinearRegex"]),
        library("ArgumentKit"),

        // Handlebars templates (petmock's response templating).
        library("Templating", ["JSONKit", "LinearRegex", "HTTPCore", "Platform"]),

        // Contracts: the model and endpoint vocabulary an app adopts, the engine, its command line.
        library("ContractModel"),
        library(
            "ContractKit",
            ["ContractModel", "JSONKit", "LinearRegex", "YAMLKit", "HTTPClient", "HTTPCore", "StubFormat"]),
        library("ContractCLI", ["ContractKit", "ArgumentKit", "HTTPClient", "HTTPCore", "Platform"]),

        // WireMock's stub-file format: the mapping model, its decoder and problems, the body-file
        // rule and the reader of a stub folder (no matching, no serving).
        library("StubFormat", ["HTTPCore", "JSONKit", "XMLKit", "Platform"]),

        // The stub server (petmock's engine, admin API and recorder).
        library(
            "StubServerKit",
            [
                "StubFormat", "HTTPServerKit", "HTTPCore", "HTTPClient", "JSONKit", "LinearRegex", "XMLKit", "Platform",
                "Templating",
            ]),

        // petmock's engine behind a URLProtocol: a URLSession answered in process by a handler.
        library("URLSessionStubs", ["HTTPServerKit", "HTTPCore", "Platform"]),

        // The pet app: its models, its client (endpoints, service, view models), its contract.
        library("PetModels", ["ContractModel"]),
        library("PetClient", ["ContractModel", "HTTPClient", "HTTPCore", "JSONKit", "PetModels"]),
        library("PetAppContract", ["ContractKit", "JSONKit", "PetClient", "PetModels"]),

        // The reference live API on SQLite.
        library("PetAPIServer", ["CSQLite", "HTTPServerKit", "HTTPCore", "JSONKit", "Platform"]),

        // petmock's command line as a library (serve, record, validate, variants), for any app's contract.
        library(
            "MockCLI",
            ["StubServerKit", "HTTPServerKit", "HTTPCore", "HTTPClient", "ContractKit", "ArgumentKit", "Platform"]),

        // The four tools.
        tool("petmock", ["MockCLI", "PetAppContract"]),
        tool("petcontract", ["ContractCLI", "PetAppContract"]),
        tool("petapi", ["PetAPIServer", "HTTPServerKit", "ArgumentKit", "Platform"]),
        tool("petvet", ["PetClient", "HTTPClient", "HTTPCore", "ArgumentKit", "Platform"]),

        // Helpers for tests: processes, raw sockets, temporary folders, handlers' answers as values.
        library("TestSupport", ["HTTPServerKit", "HTTPCore", "Platform", "CSpawn"]),

        // Benchmark executables (Benchmarks/*.sh run them).
        tool("ServerBench", ["HTTPServerKit", "HTTPCore"], path: "Benchmarks/ServerBench"),
        tool("ClientBench", ["PetClient", "HTTPClient", "PetModels", "Platform"], path: "Benchmarks/ClientBench"),
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport", swiftSettings: strict),
        tool(
            "contract-bench", ["ContractKit", "JSONKit", "PetAppContract", "BenchSupport"],
            path: "Benchmarks/ContractBench"),
        tool("openapi-bench", ["ContractKit", "JSONKit", "YAMLKit", "BenchSupport"], path: "Benchmarks/OpenAPIBench"),
        tool("template-bench", ["StubServerKit", "HTTPServerKit", "HTTPCore"], path: "Benchmarks/TemplateBench"),
        tool(
            "urlsession-stub-bench", ["URLSessionStubs", "StubServerKit", "StubFormat", "HTTPServerKit", "HTTPCore"],
            path: "Benchmarks/URLSessionStubBench"),

        tests("PlatformTests", ["Platform", "TestSupport"]),
        tests("HTTPCoreTests", ["HTTPCore"]),
        tests("ArgumentKitTests", ["ArgumentKit"]),
        tests("JSONKitTests", ["JSONKit"]),
        tests("TemplatingTests", ["Templating", "JSONKit", "HTTPCore", "LinearRegex"]),
        tests("YAMLKitTests", ["YAMLKit", "JSONKit"]),
        tests("XMLKitTests", ["XMLKit"]),
        tests(
            "StubFormatTests",
            ["StubFormat", "StubServerKit", "ContractKit", "PetAppContract", "JSONKit", "HTTPCore"]),
        tests("PetModelsTests", ["PetModels", "ContractModel"]),
        tests("HTTPServerTests", ["HTTPServerKit", "HTTPCore", "Platform", "CZlib", "TestSupport"]),
        tests("HTTPClientTests", ["HTTPClient", "HTTPCore", "HTTPServerKit", "Platform", "TestSupport"]),
        tests("PetClientTests", ["PetClient", "HTTPClient", "HTTPCore", "PetModels", "ContractModel", "Platform"]),
        tests(
            "PetvetTests",
            ["petvet", "PetClient", "HTTPClient", "HTTPServerKit", "HTTPCore", "PetModels", "TestSupport"]),
        tests(
            "ContractKitTests",
            [
                "ContractKit", "ContractCLI", "JSONKit", "ContractModel", "PetModels", "PetClient", "PetAppContract",
                "HTTPClient", "HTTPCore", "HTTPServerKit", "YAMLKit", "Platform", "TestSupport",
            ],
            exclude: ["Snapshots", "Fixtures"]),
        tests("PetContractCLITests", ["petcontract", "Platform", "TestSupport", "HTTPServerKit", "HTTPCore"]),
        tests(
            "StubServerTests",
            [
                "StubServerKit", "StubFormat", "HTTPServerKit", "HTTPCore", "JSONKit", "LinearRegex", "XMLKit",
                "Platform", "TestSupport", "Templating",
            ]),
        tests(
            "RecordingTests",
            [
                "StubServerKit", "StubFormat", "HTTPServerKit", "HTTPCore", "HTTPClient", "JSONKit", "ContractKit",
                "PetAppContract", "PetAPIServer", "Platform", "TestSupport", "MockCLI", "petmock", "ArgumentKit",
            ]),
        tests("PetAPIServerTests", ["PetAPIServer", "HTTPServerKit", "HTTPClient", "HTTPCore", "JSONKit"]),
        tests("EndToEndTests", ["TestSupport", "PetClient", "HTTPClient", "HTTPCore", "JSONKit", "PetModels"]),
        tests(
            "URLSessionStubsTests",
            ["URLSessionStubs", "StubServerKit", "StubFormat", "HTTPServerKit", "HTTPCore", "Platform", "TestSupport"]),
        tests("HardeningTests", ["TestSupport", "HTTPServerKit", "HTTPCore", "JSONKit"]),
    ],
    swiftLanguageModes: [.v6]
)
