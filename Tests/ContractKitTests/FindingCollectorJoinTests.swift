import APISchema
import ContractKit
import Testing

/// The collector joins a decode failure to the schema finding about the same key that it
/// repeats, in either order, and leaves every other pair alone.
@Suite struct FindingCollectorJoinTests {
    static func finding(
        _ id: FindingID, path: String = "$[0].temperature_c", actual: String = "absent", level: FindingLevel? = nil
    ) -> Finding {
        Finding(
            id: id, level: level, operation: "GET /readings", status: 200, path: path, expected: "number",
            actual: actual, swift: id == .decodeFailed ? "Reading.temperatureC: Double" : nil,
            message: id == .decodeFailed ? "decoding [Reading] throws" : "required property 'temperature_c' is missing")
    }

    static let keyNotFound = finding(
        .decodeFailed, path: "$[1].temperature_c", actual: "keyNotFound('temperatureC'): No value associated")

    @Test(arguments: [true, false])
    func aMissingKeyAndTheDecoderNotFindingItAreOneFinding(decodeFirst: Bool) throws {
        var collector = FindingCollector()
        let missing = Self.finding(.requiredPropertyMissing)
        if decodeFirst {
            collector.add([Self.keyNotFound])
            collector.add([missing])
        } else {
            collector.add([missing, Self.keyNotFound])
        }
        collector.add([Self.keyNotFound])
        let only = try #require(collector.findings.first)
        #expect(collector.findings.count == 1)
        #expect(only.id == .requiredPropertyMissing)
        #expect(
            only.message == "required property 'temperature_c' is missing; the app's decoder fails here: key not found")
        #expect(only.swift == "Reading.temperatureC: Double")
        #expect(only.count == 1)
    }

    @Test func aNullWhereTheTypeNeedsAValueJoinsTheRequiredNullFinding() {
        var collector = FindingCollector()
        collector.add([
            Self.finding(.requiredPropertyNull, actual: "null"),
            Self.finding(.decodeFailed, actual: "valueNotFound(Double): Cannot get value of type Double -- found null"),
        ])
        #expect(collector.findings.map(\.id) == [.requiredPropertyNull])
        #expect(
            collector.findings.first?.message.hasSuffix("the app's decoder fails here: value not found (null)") == true)
    }

    /// A type mismatch keeps both findings, and a warning is not raised or hidden by a join.
    @Test func otherPairsStayApart() {
        var collector = FindingCollector()
        collector.add([
            Self.finding(.propertyTypeChanged, actual: "string \"2\""),
            Self.finding(.decodeFailed, actual: "typeMismatch(Double): Expected to decode Double"),
        ])
        #expect(collector.findings.map(\.id) == [.propertyTypeChanged, .decodeFailed])
        var warnings = FindingCollector()
        warnings.add([Self.finding(.requiredPropertyMissing, level: .warning), Self.keyNotFound])
        #expect(warnings.findings.map(\.id) == [.requiredPropertyMissing, .decodeFailed])
    }
}
