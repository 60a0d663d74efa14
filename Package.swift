// swift-tools-version:6.2
import Foundation
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

func tests(
    _ name: String, _ dependencies: [Target.Dependency], exclude: [String] = [], resources: [Resource]? = nil
) -> Target {
    .testTarget(name: name, dependencies: dependencies, exclude: exclude, resources: resources, swiftSettings: strict)
}

/// What another package can depend on: the modules a user imports (the URLSession stubs, the
/// in-process server, the loopback server an iOS UI-test target links, the endpoint client, the contract kit and the two command lines as
/// libraries, the reference app) and the four tools. A test
/// target needs one import (`URLSessionStubs`, or `StubServerKit` for the server on a port),
/// which re-exports the modules its API is written in; `EndpointCore` and `HTTPClient` re-export
/// the HTTP values, `ContractKit` the OpenAPI and JSON models. The building blocks
/// (`StubFormat`, `MockEngine`, `JSONKit`, `HTTPServerKit`, ...) are reached through these or
/// not at all (docs/libraries.md).
let libraries = [
    "URLSessionStubs", "StubServerKit", "LoopbackStubs",
    "EndpointCore", "EndpointKit", "HTTPClient",
    "ContractModel", "ContractKit", "ContractCLI", "MockCLI",
    "PetModels", "PetClient", "PetAppContract",
]

/// The libFuzzer targets in Fuzz/ belong to the package only when `PETKIT_FUZZ=1` (Fuzz/run.sh
/// sets it and builds them with `-sanitize=fuzzer,address` in Fuzz/.build), so that they reach
/// the building blocks' `package` declarations while `swift build` and `swift test` never see
/// them. Each target's main.swift hands its check to libFuzzer's driver (FuzzDriver), since
/// SwiftPM renames an executable's entry point and libFuzzer's own main would never run.
let fuzzing = ProcessInfo.processInfo.environment["PETKIT_FUZZ"] == "1"

func fuzzTarget(_ name: String, _ modules: [Target.Dependency], support: Bool = false) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzDriver"] + (support ? ["FuzzSupport"] : []) + modules,
        path: "Fuzz/Sources/\(name)", swiftSettings: strict)
}

let fuzzTargets: [Target] = [
    .target(name: "FuzzDriver", path: "Fuzz/Sources/FuzzDriver"),
    .target(name: "FuzzSupport", path: "Fuzz/Sources/FuzzSupport", swiftSettings: strict),
    fuzzTarget("FuzzHTTPRequestParser", ["HTTPServerKit", "HTTPCore"]),
    fuzzTarget("FuzzTLSHandshake", ["TLSKit", "HTTPServerKit"]),
    fuzzTarget("FuzzHTTPResponseReader", ["HTTPClient", "HTTPCore"]),
    fuzzTarget("FuzzJSONParser", ["JSONKit"]),
    fuzzTarget("FuzzOpenAPIReader", ["APISchema", "ContractKit", "JSONKit"]),
    fuzzTarget("FuzzSwagger2Converter", ["APISchema", "ContractKit", "JSONKit"]),
    fuzzTarget("FuzzOpenAPIGeneration", ["APISchema", "ContractKit", "OpenAPIMock", "HTTPCore"]),
    fuzzTarget(
        "FuzzStubMappings", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "JSONKit"], support: true),
    fuzzTarget("FuzzStubFolder", ["StubFormat", "JSONKit"], support: true),
    fuzzTarget("FuzzPostmanReader", ["StubFormat", "JSONKit"]),
    fuzzTarget("FuzzYAMLReader", ["YAMLKit", "JSONKit"]),
    fuzzTarget(
        "FuzzStubRegex", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "LinearRegex"], support: true),
    fuzzTarget("FuzzXMLMatcher", ["XMLKit"]),
    fuzzTarget("FuzzXMLSerializer", ["OpenAPIMock", "APISchema", "JSONKit", "XMLKit"]),
    fuzzTarget("FuzzTemplate", ["Templating", "HTTPCore"]),
    fuzzTarget("FuzzMultipartParser", ["StubServerKit", "MockEngine", "HTTPCore"]),
    fuzzTarget("FuzzPreferHeader", ["StubServerKit", "HTTPHandlerKit", "HTTPCore"], support: true),
    fuzzTarget("FuzzSecurityCredentials", ["OpenAPIMock", "APISchema", "HTTPCore"]),
    fuzzTarget("FuzzRuntimeExpression", ["APISchema", "HTTPCore"]),
    fuzzTarget("FuzzStateFile", ["OpenAPIMock", "JSONKit"]),
    fuzzTarget(
        "FuzzOpenAPIServing",
        ["OpenAPIMock", "StubServerKit", "MockEngine", "ContractKit", "APISchema", "HTTPHandlerKit", "HTTPCore"]),
    fuzzTarget(
        "FuzzAdminSettings",
        ["StubServerKit", "MockEngine", "StubFormat", "HTTPServerKit", "HTTPHandlerKit", "HTTPCore", "JSONKit"],
        support: true),
    fuzzTarget(
        "FuzzWebhookDefinitions", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "JSONKit"], support: true),
    fuzzTarget(
        "FuzzStateExtension", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "JSONKit"], support: true),
]

let package = Package(
    name: "petkit",
    // The Apple platforms whose test targets link URLSessionStubs, LoopbackStubs (a UI-test
    // target's loopback server), EndpointKit, ContractModel and what they depend on (the SDK's
    // Foundation, zlib and libxml2): the releases with Synchronization's Atomic, which MockEngine
    // uses. The tools and StubServerKit (libcurl, OpenSSL) build for macOS only. Until the macOS
    // job has built them for the iOS Simulator, these are unverified.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: libraries.map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "petmock", targets: ["petmock"]),
        .executable(name: "petcontract", targets: ["petcontract"]),
        .executable(name: "petapi", targets: ["petapi"]),
        .executable(name: "petvet", targets: ["petvet"]),
    ],
    targets: [
        // C libraries from Debian packages, and a few C helpers for system calls.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libcurl, opened on first use (its headers come from libcurl4-openssl-dev; nothing links it).
        .target(name: "CCurl"),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CXML", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // TLS for the socket server's HTTPS and its local certificate authority (TLSKit alone
        // links it; never in what an iOS test target links: scripts/check-link-closure.sh).
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "CSystem"),
        .target(name: "CSpawn"),

        // What the system offers, behind one interface: the lock, pollers (epoll, poll), wake-up,
        // listener and socket calls, file watchers and the file system.
        library("Platform", ["CSystem"]),

        // HTTP: shared types, the epoll server (no TLS library: TLSKit adds HTTPS through its
        // connection-layer hook), the libcurl client.
        library("HTTPCore"),
        // What a handler receives and returns, with no socket: the request, reply values,
        // prepared responses, faults, delays (the server and in-process stubs share them).
        library("HTTPHandlerKit", ["HTTPCore", "Platform", "CZlib"]),
        library("HTTPServerKit", ["HTTPHandlerKit", "HTTPCore", "Platform", "CZlib"]),
        // HTTPS for HTTPServerKit through OpenSSL: the TLS session as a connection layer, the
        // local certificate authority.
        library("TLSKit", ["HTTPServerKit", "COpenSSL", "Platform"]),
        library("HTTPClient", ["HTTPCore", "Platform", "CCurl", "CZlib"]),
        // The generic API client over any transport: no libcurl, no libyaml, so an iOS test
        // target can link it. EndpointKit adds URLSession's transport and re-exports the core; a
        // tool that sends with libcurl links the core alone (no FoundationNetworking).
        library("EndpointCore", ["HTTPCore", "JSONKit"]),
        library("EndpointKit", ["EndpointCore", "HTTPCore"]),
        library("LinearRegex"),
        library("JSONKit", ["LinearRegex"]),
        library("YAMLKit", ["CYAML", "JSONKit"]),
        library("XMLKit", ["CXML", "LinearRegex"]),
        library("ArgumentKit", ["HTTPCore"]),

        // Handlebars templates (petmock's response templating).
        library("Templating", ["JSONKit", "LinearRegex", "HTTPCore", "Platform"]),

        // JSON Schema and OpenAPI with no libcurl and no libyaml: the schema model, the OpenAPI
        // document model with its reader (of JSON values) and writer, the format checks and the
        // JSON Schema validator that petmock and petcontract share.
        library("APISchema", ["JSONKit", "LinearRegex", "HTTPCore"]),

        // Contracts: the model and endpoint vocabulary an app adopts, the engine, its command line.
        library("ContractModel"),
        library(
            "ContractKit",
            [
                "APISchema", "ContractModel", "JSONKit", "LinearRegex", "YAMLKit", "HTTPClient", "HTTPCore", "Platform",
                "StubFormat",
            ]),
        library("ContractCLI", ["APISchema", "ContractKit", "ArgumentKit", "HTTPClient", "HTTPCore", "Platform"]),

        // WireMock's stub-file format: the mapping model, its decoder and problems, the body-file
        // rule and the reader of a stub folder (no matching, no serving).
        library("StubFormat", ["HTTPCore", "JSONKit", "XMLKit", "Platform"]),

        // petmock's engine with no socket and no libcurl: loading, matching, variants,
        // templating, scenarios, the journal, the admin interface (`Admin`), recording; the
        // upstream clients are its front end's.
        library(
            "MockEngine",
            [
                "APISchema", "StubFormat", "HTTPHandlerKit", "HTTPCore", "JSONKit", "LinearRegex", "XMLKit", "Platform",
                "Templating",
            ]),

        // The engine as one HTTP handler (StubHandler): the stub path beside the `/__admin` API,
        // a route table, and the dashboard, whose files are embedded at build time.
        .target(
            name: "AdminAPI",
            dependencies: [
                "MockEngine", "StubFormat", "HTTPHandlerKit", "HTTPCore", "JSONKit", "Platform", "Templating",
            ],
            resources: [
                .embedInCode("Dashboard/index.html"), .embedInCode("Dashboard/app.css"),
                .embedInCode("Dashboard/app.js"), .embedInCode("Dashboard/icon.svg"),
            ],
            swiftSettings: strict),

        // The one SQLite wrapper: a connection, prepared statements with bound values, transactions
        // (petapi's store, petmock's --state-file).
        library("SQLiteKit", ["CSQLite"]),

        // An OpenAPI document as petmock's fallback reply source: examples and generated bodies.
        library(
            "OpenAPIMock",
            [
                "APISchema", "MockEngine", "StubFormat", "HTTPHandlerKit", "HTTPCore", "JSONKit", "LinearRegex",
                "Platform", "SQLiteKit", "XMLKit",
            ]),

        // petmock's engine on HTTPServerKit's sockets, with the upstream clients and servers its
        // front end gives (no libcurl, no TLS): what StubServerKit and LoopbackStubs share.
        library(
            "StubServerCore", ["AdminAPI", "MockEngine", "StubFormat", "HTTPServerKit", "HTTPHandlerKit", "Platform"]),

        // The stub server: StubServerCore with libcurl and its own client for upstreams, HTTPS
        // (TLSKit), file watching.
        library(
            "StubServerKit",
            [
                "AdminAPI", "APISchema", "MockEngine", "OpenAPIMock", "StubFormat", "StubServerCore", "HTTPServerKit",
                "TLSKit", "HTTPHandlerKit", "HTTPCore", "HTTPClient", "JSONKit", "Platform", "XMLKit",
            ]),

        // petmock's engine behind a URLProtocol: a URLSession answered in process by a handler.
        library(
            "URLSessionStubs",
            [
                "AdminAPI", "MockEngine", "OpenAPIMock", "APISchema", "EndpointKit", "StubFormat", "HTTPHandlerKit",
                "HTTPCore", "JSONKit", "Platform", "XMLKit",
            ]),

        // StubServerCore on a loopback port with a URLSession for upstreams: no libcurl, no
        // OpenSSL, so an iOS UI-test target links it and the app under test reaches it.
        library(
            "LoopbackStubs",
            [
                "StubServerCore", "URLSessionStubs", "AdminAPI", "MockEngine", "OpenAPIMock", "APISchema", "StubFormat",
                "HTTPServerKit", "HTTPHandlerKit", "HTTPCore", "JSONKit", "Platform", "XMLKit",
            ]),

        // The pet app: its models, its client (endpoints, service, view models), its contract.
        library("PetModels", ["ContractModel", "EndpointCore"]),
        library("PetClient", ["EndpointKit", "ContractModel", "HTTPCore", "PetModels"]),
        library("PetAppContract", ["APISchema", "ContractKit", "EndpointCore", "JSONKit", "PetModels"]),

        // The reference live API on SQLite.
        library("PetAPIServer", ["SQLiteKit", "HTTPServerKit", "HTTPCore", "JSONKit", "Platform", "HTTPHandlerKit"]),

        // petmock's command line as a library (serve, record, validate, variants, generate), for any app's contract.
        library(
            "MockCLI",
            [
                "StubServerKit", "HTTPServerKit", "TLSKit", "HTTPCore", "HTTPClient", "APISchema", "ContractKit",
                "ArgumentKit",
                "Platform", "MockEngine", "OpenAPIMock", "JSONKit", "StubFormat",
            ]),

        // The four tools.
        tool("petmock", ["MockCLI", "PetAppContract"]),
        tool("petcontract", ["ContractCLI", "PetAppContract"]),
        tool("petapi", ["PetAPIServer", "HTTPServerKit", "ArgumentKit", "Platform", "HTTPHandlerKit"]),
        tool("petvet", ["PetClient", "EndpointKit", "HTTPClient", "HTTPCore", "ArgumentKit", "Platform"]),

        // Helpers for tests: processes, raw sockets, temporary folders, handlers' answers as values.
        library("TestSupport", ["HTTPServerKit", "HTTPCore", "Platform", "CSpawn", "HTTPHandlerKit"]),

        // Benchmark executables (Benchmarks/*.sh run them).
        tool("ServerBench", ["HTTPServerKit", "HTTPCore", "HTTPHandlerKit"], path: "Benchmarks/ServerBench"),
        tool(
            "ClientBench", ["PetClient", "EndpointKit", "HTTPClient", "HTTPCore", "PetModels", "Platform"],
            path: "Benchmarks/ClientBench"),
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport", swiftSettings: strict),
        tool(
            "contract-bench", ["APISchema", "ContractKit", "JSONKit", "PetAppContract", "BenchSupport"],
            path: "Benchmarks/ContractBench"),
        tool(
            "openapi-bench", ["APISchema", "ContractKit", "JSONKit", "YAMLKit", "BenchSupport"],
            path: "Benchmarks/OpenAPIBench"),
        tool("template-bench", ["StubServerKit", "HTTPServerKit", "HTTPCore"], path: "Benchmarks/TemplateBench"),
        tool(
            "urlsession-stub-bench", ["URLSessionStubs", "MockEngine", "StubServerKit", "StubFormat", "HTTPCore"],
            path: "Benchmarks/URLSessionStubBench"),

        tests("PlatformTests", ["Platform", "TestSupport"]),
        tests("HTTPCoreTests", ["HTTPCore"]),
        tests("ArgumentKitTests", ["ArgumentKit", "HTTPCore"]),
        tests("JSONKitTests", ["JSONKit"]),
        tests("TemplatingTests", ["Templating", "JSONKit", "HTTPCore", "LinearRegex"]),
        tests("YAMLKitTests", ["YAMLKit", "JSONKit"]),
        tests("XMLKitTests", ["XMLKit"]),
        tests(
            "StubFormatTests",
            [
                "StubFormat", "StubServerKit", "ContractKit", "PetAppContract", "JSONKit", "HTTPCore", "MockEngine",
                "TestSupport",
            ],
            exclude: ["Fixtures"]),
        // Claims URLSession.shared in a process of its own (URLSessionStubsTests runs it).
        tool(
            "urlsession-stubs-shared-probe", ["URLSessionStubs", "HTTPHandlerKit"],
            path: "Tests/URLSessionStubsSharedProbe"),

        tests("PetModelsTests", ["PetModels", "ContractModel"]),
        tests("HTTPServerTests", ["HTTPServerKit", "HTTPCore", "Platform", "CZlib", "TestSupport", "HTTPHandlerKit"]),
        tests(
            "HTTPClientTests", ["HTTPClient", "HTTPCore", "HTTPHandlerKit", "HTTPServerKit", "Platform", "TestSupport"]),
        tests(
            "EndpointKitTests",
            ["EndpointKit", "HTTPClient", "HTTPCore", "HTTPHandlerKit", "HTTPServerKit", "Platform", "TestSupport"]),
        tests("PetClientTests", ["PetClient", "EndpointKit", "HTTPCore", "PetModels", "ContractModel", "Platform"]),
        tests(
            "PetvetTests",
            [
                "petvet", "PetClient", "HTTPClient", "HTTPServerKit", "HTTPCore", "PetModels", "TestSupport",
                "HTTPHandlerKit",
            ]),
        tests(
            "ContractKitTests",
            [
                "APISchema", "ContractKit", "ContractCLI", "JSONKit", "ContractModel", "PetModels", "PetClient",
                "PetAppContract",
                "HTTPClient", "HTTPCore", "HTTPHandlerKit", "HTTPServerKit", "YAMLKit", "Platform", "TestSupport",
            ],
            exclude: ["Snapshots", "Fixtures"]),
        tests("PetContractCLITests", ["petcontract", "Platform", "TestSupport", "HTTPServerKit", "HTTPCore"]),
        tests(
            "MockEngineTests",
            [
                "StubServerKit", "StubFormat", "HTTPServerKit", "HTTPCore", "JSONKit", "LinearRegex", "XMLKit",
                "Platform", "TestSupport", "Templating", "HTTPHandlerKit", "MockEngine", "AdminAPI",
            ]),
        tests(
            "RecordingTests",
            [
                "StubServerKit", "StubFormat", "HTTPServerKit", "HTTPCore", "HTTPClient", "JSONKit", "ContractKit",
                "PetAppContract", "PetAPIServer", "Platform", "TestSupport", "MockCLI", "petmock", "ArgumentKit",
                "HTTPHandlerKit", "MockEngine", "AdminAPI", "APISchema",
            ]),
        tests(
            "PetAPIServerTests",
            ["PetAPIServer", "HTTPServerKit", "HTTPClient", "HTTPCore", "JSONKit", "HTTPHandlerKit", "TestSupport"]),
        tests("EndToEndTests", ["TestSupport", "PetClient", "HTTPClient", "HTTPCore", "JSONKit", "PetModels"]),
        tests(
            "URLSessionStubsTests",
            [
                "URLSessionStubs", "MockEngine", "StubServerKit", "StubFormat", "HTTPHandlerKit", "HTTPServerKit",
                "HTTPCore", "Platform", "TestSupport",
            ],
            // A stub folder in the test bundle, as an app's test target ships one.
            resources: [.copy("Stubs")]),
        // One table of schemas and values, through petmock's matchesJsonSchema and petcontract's validation.
        tests("SchemaParityTests", ["APISchema", "ContractKit", "MockEngine", "StubFormat", "JSONKit"]),
        tests(
            "OpenAPIMockTests",
            [
                "OpenAPIMock", "APISchema", "ContractKit", "MockEngine", "AdminAPI", "StubServerKit", "StubFormat",
                "HTTPHandlerKit", "MockCLI", "ArgumentKit", "LinearRegex",
                "HTTPClient", "HTTPCore", "JSONKit", "Platform", "TestSupport", "SQLiteKit", "XMLKit",
            ],
            exclude: ["Fixtures"]),
        tests("HardeningTests", ["TestSupport", "HTTPServerKit", "TLSKit", "HTTPCore", "JSONKit", "HTTPHandlerKit"]),
        tests("TLSKitTests", ["TLSKit", "HTTPServerKit", "HTTPHandlerKit", "TestSupport"]),
        tests(
            "LoopbackStubsTests",
            ["LoopbackStubs", "HTTPServerKit", "HTTPHandlerKit", "HTTPCore", "Platform", "TestSupport"],
            resources: [.copy("Stubs")]),
    ],
    swiftLanguageModes: [.v6]
)

if fuzzing {
    // The libraries and the fuzz targets alone: no tests, tools or benchmarks built with the
    // fuzzer's flags.
    package.targets = package.targets.filter { $0.type == .regular || $0.type == .system } + fuzzTargets
    package.products = []
}
