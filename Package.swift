// swift-tools-version:6.2
import PackageDescription

// Every Swift target builds in Swift 6 mode with strict concurrency and warnings as errors.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

func library(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: strict)
}

func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, swiftSettings: strict)
}

let package = Package(
    name: "petkit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ArgumentKit", targets: ["ArgumentKit"]),
        .library(name: "StubServer", targets: ["StubServer"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CSystem"),
        library("HTTPCore"),
        tests("HTTPCoreTests", ["HTTPCore"]),
        library("ArgumentKit"),
        tests("ArgumentKitTests", ["ArgumentKit"]),
        library("ContractModel"),
        library("PetModels", ["ContractModel"]),
        tests("PetModelsTests", ["PetModels"]),

        // Server core (issue 2): HTTPServer, its tests and benchmark executables.
        library("HTTPServer", ["HTTPCore", "CSystem", "CZlib"]),
        tests("HTTPServerTests", ["HTTPServer", "HTTPCore", "CSystem", "CZlib", "TestSupport"]),
        .executableTarget(
            name: "ServerBench", dependencies: ["HTTPServer", "HTTPCore"], path: "Benchmarks/ServerBench",
            swiftSettings: strict),

        // Client side (issue 4): HTTPClient, PetClient, petvet.
        library("HTTPClient", ["HTTPCore", "CCurl", "CZlib"]),
        tests("HTTPClientTests", ["HTTPClient", "HTTPCore", "HTTPServer", "TestSupport"]),
        library("PetClient", ["HTTPClient", "HTTPCore", "JSONKit", "PetModels"]),
        tests("PetClientTests", ["PetClient", "HTTPClient", "HTTPCore", "PetModels"]),
        .executableTarget(name: "petvet", dependencies: ["PetClient", "ArgumentKit"], swiftSettings: strict),
        tests("PetvetTests", ["petvet", "PetClient", "HTTPClient", "HTTPServer", "HTTPCore", "PetModels", "TestSupport"]),
        .executableTarget(
            name: "ClientBench", dependencies: ["PetClient", "HTTPClient", "PetModels"], path: "Benchmarks/ClientBench",
            swiftSettings: strict),

        // Contracts (issue 5): JSONKit, ContractKit, petcontract.
        library("JSONKit"),
        tests("JSONKitTests", ["JSONKit"]),
        library("ContractKit", ["JSONKit", "ContractModel", "PetModels", "HTTPClient", "HTTPCore"]),
        .testTarget(
            name: "ContractKitTests",
            dependencies: ["ContractKit", "JSONKit", "ContractModel", "PetModels", "HTTPClient", "HTTPCore"],
            exclude: ["Snapshots"], swiftSettings: strict),
        .executableTarget(
            name: "petcontract", dependencies: ["ContractKit", "ArgumentKit", "HTTPClient", "HTTPCore"], swiftSettings: strict),
        tests("PetContractCLITests", ["petcontract", "TestSupport"]),
        .executableTarget(
            name: "contract-bench", dependencies: ["ContractKit", "JSONKit"], path: "Benchmarks/ContractBench",
            swiftSettings: strict),

        // Stub server (issue 3): StubServer, petmock.
        library("StubServer", ["HTTPServer", "HTTPCore", "HTTPClient", "JSONKit", "CSystem"]),
        tests("StubServerTests", ["StubServer", "HTTPServer", "HTTPCore", "JSONKit", "TestSupport"]),
        .executableTarget(
            name: "petmock",
            dependencies: ["StubServer", "HTTPServer", "HTTPCore", "HTTPClient", "ContractKit", "ArgumentKit"],
            swiftSettings: strict),

        // Recording (issue 7): StubServer/Recording, petmock record, their tests.
        tests(
            "RecordingTests",
            [
                "StubServer", "HTTPServer", "HTTPCore", "HTTPClient", "JSONKit", "ContractKit", "PetAPIServer",
                "TestSupport", "petmock",
            ]),

        // Live side (issue 6): PetAPIServer, petapi, end-to-end tests.
        library("PetAPIServer", ["CSQLite", "HTTPServer", "JSONKit"]),
        tests("PetAPIServerTests", ["PetAPIServer", "HTTPServer", "HTTPClient", "JSONKit"]),
        .executableTarget(name: "petapi", dependencies: ["PetAPIServer", "ArgumentKit"], swiftSettings: strict),
        library("TestSupport"),
        tests("EndToEndTests", ["TestSupport", "PetClient", "HTTPClient", "HTTPCore", "JSONKit", "PetModels"]),

        // Hardening (issue 8): hostile-input tests of petcontract and petapi; fuzz targets live in Fuzz/.
        tests("HardeningTests", ["TestSupport", "CSystem", "HTTPServer", "HTTPCore"]),
    ],
    swiftLanguageModes: [.v6]
)

// Hardening (issue 8): the fuzz package (Fuzz/Package.swift) builds against these modules, and a
// path dependency can only use products.
for name in ["HTTPCore", "HTTPServer", "JSONKit", "ContractKit", "StubServer"]
where !package.products.contains(where: { $0.name == name }) {
    package.products.append(.library(name: name, targets: [name]))
}
