import MockEngine
import StubServerKit
import Testing

/// WireMock's `AdminApiTest` cases of `/__admin/version`, `/__admin/settings` and
/// `/__admin/files`, and `GlobalSettingsAcceptanceTest`'s cases that read settings back
/// (Apache-2.0, `src/test/java/com/github/tomakehurst/wiremock/`), carried over as data.
/// The files cases run on a stub folder, as WireMock's run on its files root. The delays
/// `GlobalSettingsAcceptanceTest` times are `AdminSettingsTests`' (as reply values).
@Suite struct AdminSettingsFilesParityTests {
    static let settingsJSON = #"{"extended": {"mySetting": 123}}"#
    static let wrappedSettingsJSON =
        #"{"settings": {"delayDistribution": {"type": "uniform", "lower": 100, "upper": 300}, "extended": {"one": 1, "two": {"name": "abc"}}}}"#

    static let cases: [AcceptanceCase] = [
        AcceptanceCase(
            "AdminApiTest.getVersionRequestDefaultsToJson", [],
            [Probe("GET", "/__admin/version", status: 200, json: ["$.version": #"["\#(StubServer.version)"]"#])]),
        AcceptanceCase(
            "AdminApiTest.getVersionRequestReturnsTextBodyWhenAcceptHeaderIsTextPlain", [],
            [
                Probe(
                    "GET", "/__admin/version", headers: [("Accept", "text/plain")], status: 200,
                    bodyContains: StubServer.version, json: ["$": "<not JSON>"])
            ]),
        AcceptanceCase(
            "AdminApiTest.deleteStubFile", [],
            [
                Probe("DELETE", "/__admin/files/bar.txt", status: 200),
                Probe("GET", "/__admin/files/bar.txt", status: 404),
            ], files: ["__files/bar.txt": "contents"]),
        AcceptanceCase(
            "AdminApiTest.deleteStubFileInTree", [],
            [
                Probe("DELETE", "/__admin/files/foo/bar.txt", status: 200),
                Probe("GET", "/__admin/files", status: 200, json: ["$": "[[]]"]),
            ], files: ["__files/foo/bar.txt": "contents"]),
        AcceptanceCase(
            "AdminApiTest.editStubFileContent", [],
            [
                Probe("PUT", "/__admin/files/bar.txt", body: "BBB", status: 200),
                Probe("GET", "/__admin/files/bar.txt", status: 200, bodyContains: "BBB"),
            ], files: ["__files/bar.txt": "AAA"]),
        AcceptanceCase(
            "AdminApiTest.createStubFileContentInTree", [],
            [
                Probe("PUT", "/__admin/files/foo/bar.txt", body: "BBB", status: 200),
                Probe("GET", "/__admin/files/foo/bar.txt", status: 200, bodyContains: "BBB"),
            ], onDisk: true),
        AcceptanceCase(
            "AdminApiTest.getStubFileContent", [],
            [Probe("GET", "/__admin/files/foo/bar.txt", status: 200, bodyContains: "AAA")],
            files: ["__files/foo/bar.txt": "AAA"]),
        AcceptanceCase(
            "AdminApiTest.listStubFiles", [],
            [Probe("GET", "/__admin/files", status: 200, json: ["$": #"[["bar.txt","zoo.txt"]]"#])],
            files: ["__files/bar.txt": "contents", "__files/zoo.txt": "contents"]),
        AcceptanceCase(
            "AdminApiTest.updateGlobalSettingsViaPut", [],
            [
                Probe("PUT", "/__admin/settings", body: settingsJSON, status: 200),
                Probe("GET", "/__admin/settings", status: 200, json: ["$.settings.extended.mySetting": "[123]"]),
            ]),
        AcceptanceCase(
            "AdminApiTest.updateGlobalSettingsViaPutWithWrapper", [],
            [
                Probe("PUT", "/__admin/settings", body: wrappedSettingsJSON, status: 200),
                Probe(
                    "GET", "/__admin/settings", status: 200,
                    json: [
                        "$.settings.delayDistribution.type": #"["uniform"]"#, "$.settings.extended.one": "[1]",
                        "$.settings.extended.two.name": #"["abc"]"#,
                    ]),
            ]),
        AcceptanceCase(
            "AdminApiTest.patchExtendedGlobalSettings", [],
            [
                Probe("PUT", "/__admin/settings", body: #"{"extended": {"two": 2}}"#, status: 200),
                Probe(
                    "PATCH", "/__admin/settings/extended", body: #"{"extended": {"one": 11, "three": 3}}"#,
                    status: 200),
                Probe(
                    "GET", "/__admin/settings", status: 200,
                    json: ["$.settings.extended": #"[{"one":11,"three":3,"two":2}]"#]),
            ]),
        AcceptanceCase(
            "GlobalSettingsAcceptanceTest.fetchSettings", [],
            [
                Probe("POST", "/__admin/settings", body: #"{"fixedDelay": 30}"#, status: 200),
                Probe("GET", "/__admin/settings", status: 200, json: ["$.settings.fixedDelay": "[30]"]),
            ]),
        AcceptanceCase(
            "GlobalSettingsAcceptanceTest.setAndRetrieveExtendedSettings", [],
            [
                Probe("POST", "/__admin/settings", body: #"{"extended": {"mySetting": "setting-value"}}"#, status: 200),
                Probe(
                    "GET", "/__admin/settings", status: 200,
                    json: ["$.settings.extended.mySetting": #"["setting-value"]"#]),
            ]),
        AcceptanceCase(
            "GlobalSettingsAcceptanceTest.setAndRetrieveProxyPassThroughSettings", [],
            [
                Probe(
                    "POST", "/__admin/settings", body: #"{"proxyPassThrough": false}"#, status: 422,
                    json: ["$.errors[0].source.pointer": #"["/proxyPassThrough"]"#]),
                Probe("GET", "/__admin/settings", status: 200, json: ["$.settings.proxyPassThrough": "[true]"]),
            ],
            deliberate:
                "petmock always passes proxy stubs through: proxyPassThrough false is refused (422), never kept unheeded"
        ),
    ]

    @Test(arguments: cases)
    func wireMockCase(_ example: AcceptanceCase) throws {
        try example.run()
    }
}
