import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The count of the acceptance cases carried over that docs/wiremock-compatibility.md gives is the
/// count of the data.
@Suite struct AcceptanceParityCountTests {
    static let all: [AcceptanceCase] =
        StubbingAcceptanceParityTests.cases + AdminApiAcceptanceParityTests.cases
        + ScenarioAcceptanceParityTests.cases + VerificationAcceptanceParityTests.cases
        + NearMissesAcceptanceParityTests.cases + HeaderMatchingAcceptanceParityTests.cases
        + StubMetadataAcceptanceParityTests.cases + MappingsLoaderAcceptanceParityTests.cases
        + AdminSettingsFilesParityTests.cases

    @Test func theCompatibilityPageSaysHowManyAndHowManyDiffer() throws {
        let deliberate = Self.all.filter { $0.deliberate != nil }.count
        let sentence =
            "\(Self.all.count) cases, \(Self.all.count - deliberate) answered as WireMock answers and \(deliberate) deliberate"
        let file = try #require(fopen(Fixtures.repository + "/docs/wiremock-compatibility.md", "r"))
        defer { fclose(file) }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            text += buffer[..<count]
        }
        let page = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
        #expect(page.contains(sentence), "docs/wiremock-compatibility.md should say: \(sentence)")
        // The matcher-level JSONPath cases, and the one refused at load.
        let jsonPath = "`MatchesJsonPathPatternTest`'s \(MatchesJsonPathParityTests.cases.count + 1) cases"
        #expect(page.contains(jsonPath), "docs/wiremock-compatibility.md should say: \(jsonPath)")
        // Every case names the WireMock test it comes from, once.
        #expect(Set(Self.all.map(\.source)).count == Self.all.count)
    }
}
