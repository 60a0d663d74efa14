// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets for petkit's parsers, kept out of the main package so that `swift build`
// and `swift test` there are unaffected. Build and run them with `make fuzz` (see Fuzz/run.sh):
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address
// The flags reach the petkit modules too, so libFuzzer sees their coverage. Each target's
// main.swift hands its check to libFuzzer's driver (FuzzDriver), since SwiftPM renames an
// executable's entry point and libFuzzer's own main would never run.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

func fuzzTarget(_ name: String, _ products: [String], support: Bool = false) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzDriver"] + (support ? ["FuzzSupport"] : [])
            + products.map { .product(name: $0, package: "petkit") },
        swiftSettings: strict)
}

let package = Package(
    name: "petkit-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "petkit", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "FuzzSupport", swiftSettings: strict),
        fuzzTarget("FuzzHTTPRequestParser", ["HTTPServerKit", "HTTPCore"]),
        fuzzTarget("FuzzHTTPResponseReader", ["HTTPClient", "HTTPCore"]),
        fuzzTarget("FuzzJSONParser", ["JSONKit"]),
        fuzzTarget("FuzzOpenAPIReader", ["APISchema", "ContractKit", "JSONKit"]),
        fuzzTarget("FuzzSwagger2Converter", ["APISchema", "ContractKit", "JSONKit"]),
        fuzzTarget("FuzzOpenAPIGeneration", ["APISchema", "ContractKit", "OpenAPIMock", "HTTPCore"]),
        fuzzTarget(
            "FuzzStubMappings", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "JSONKit"], support: true),
        fuzzTarget("FuzzStubFolder", ["StubFormat", "JSONKit"], support: true),
        fuzzTarget("FuzzYAMLReader", ["YAMLKit", "JSONKit"]),
        fuzzTarget(
            "FuzzStubRegex", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "LinearRegex"], support: true),
        fuzzTarget("FuzzXMLMatcher", ["XMLKit"]),
        fuzzTarget("FuzzTemplate", ["Templating", "HTTPCore"]),
        fuzzTarget("FuzzMultipartParser", ["StubServerKit", "MockEngine", "HTTPCore"]),
        fuzzTarget("FuzzPreferHeader", ["StubServerKit", "HTTPHandlerKit", "HTTPCore"], support: true),
        fuzzTarget("FuzzSecurityCredentials", ["OpenAPIMock", "APISchema", "HTTPCore"]),
        fuzzTarget(
            "FuzzOpenAPIServing",
            ["OpenAPIMock", "StubServerKit", "MockEngine", "ContractKit", "APISchema", "HTTPHandlerKit", "HTTPCore"]),
        fuzzTarget(
            "FuzzAdminSettings",
            ["StubServerKit", "MockEngine", "StubFormat", "HTTPServerKit", "HTTPHandlerKit", "HTTPCore", "JSONKit"],
            support: true),
        fuzzTarget(
            "FuzzWebhookDefinitions", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "JSONKit"],
            support: true),
        fuzzTarget(
            "FuzzStateExtension", ["StubServerKit", "MockEngine", "StubFormat", "HTTPCore", "JSONKit"], support: true),
    ],
    swiftLanguageModes: [.v6]
)
