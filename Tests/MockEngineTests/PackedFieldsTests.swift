import HTTPCore
import Testing

@testable import MockEngine

@Suite struct PackedFieldsTests {
    /// Numbers at each LEB128 length boundary, negative ones, and strings and bytes whose
    /// lengths take one, two and three bytes come back in the order written.
    @Test func whatIsWrittenIsReadBackInOrder() {
        let numbers: [Int] = [0, 1, 127, 128, 16_383, 16_384, -1, .min, .max]
        let strings = [
            "", "a", String(repeating: "x", count: 127), String(repeating: "y", count: 128), "caf\u{e9} \u{1F408}",
            String(repeating: "z", count: 20_000),
        ]
        let bytes: [[UInt8]] = [[], [0, 255], Array(repeating: 7, count: 300)]
        let headers: HTTPHeaders = ["Host": "h", "X-Empty": "", "X-Long": String(repeating: "v", count: 200)]
        let packed = PackedFields { writer in
            for number in numbers { writer.append(number) }
            for string in strings { writer.append(string) }
            writer.append(headers)
            for bytes in bytes { writer.append(bytes) }
            writer.append(HTTPHeaders())
        }
        var reader = packed.reader
        #expect(numbers.map { _ in reader.int() } == numbers)
        #expect(strings.map { _ in reader.string() } == strings)
        #expect(reader.headers() == headers)
        #expect(bytes.map { _ in reader.bytes() } == bytes)
        #expect(reader.headers().fields.isEmpty)
    }

    /// The array is sized once, from the measuring pass: it holds exactly what was written.
    @Test func theStorageHoldsExactlyWhatWasWritten() {
        let packed = PackedFields { writer in
            writer.append("abc")
            writer.append(300)
            writer.append([UInt8](repeating: 1, count: 5))
        }
        #expect(packed.byteCount == (1 + 3) + 2 + (1 + 5))
        #expect(PackedFields { _ in }.byteCount == 0)
    }
}
