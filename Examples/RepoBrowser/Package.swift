// swift-tools-version:6.2
import PackageDescription

// A second app, not about pets: a GitHub-like repositories browser that adopts petkit as any
// team would, as a dependency by path. Its models read snake_case JSON through the decoder's
// key strategy, with a nested owner, ISO 8601 dates, optional arrays and an enum.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "RepoBrowser",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "petkit", path: "../..")],
    targets: [
        // The app's networking: models and the endpoints it calls (client + contract declarations).
        .target(
            name: "RepoBrowserAPI",
            dependencies: [
                .product(name: "EndpointKit", package: "petkit"), .product(name: "ContractModel", package: "petkit"),
            ],
            swiftSettings: strict),
        // The app's contract: its endpoints and its decoder, handed to ContractKit.
        .target(
            name: "RepoBrowserContract",
            dependencies: ["RepoBrowserAPI", .product(name: "ContractKit", package: "petkit")],
            swiftSettings: strict),
        // The app's own petcontract: generate, verify, diff with its models.
        .executableTarget(
            name: "repo-contract",
            dependencies: ["RepoBrowserContract", .product(name: "ContractCLI", package: "petkit")],
            swiftSettings: strict),
        .testTarget(
            name: "RepoBrowserTests",
            dependencies: [
                "RepoBrowserAPI", "RepoBrowserContract", .product(name: "ContractKit", package: "petkit"),
                .product(name: "ContractModel", package: "petkit"), .product(name: "StubServerKit", package: "petkit"),
                // The URLSession tests' one product: it brings the mapping model, the journal and the errors.
                .product(name: "URLSessionStubs", package: "petkit"),
                .product(name: "HTTPClient", package: "petkit"), .product(name: "EndpointKit", package: "petkit"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "RepoBrowserXCTests",
            dependencies: [
                "RepoBrowserAPI", .product(name: "StubServerKit", package: "petkit"),
                .product(name: "EndpointKit", package: "petkit"),
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
