import FuzzDriver
import HTTPCore
import StubServer

/// The check libFuzzer runs on every input, read as a `Content-Type` value, a newline, and a
/// body: parsing never crashes or hangs; it gives at most `maximumParts` parts; and parts it
/// gives, written out again with the same boundary, parse back to the same parts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipartParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Array(bytes[min(newline + 1, bytes.endIndex)...])
    guard let parts = MultipartParser.parse(contentType: contentType, body: body) else { return 0 }
    precondition(parts.count <= MultipartParser.maximumParts, "\(parts.count) parts")
    guard let boundary = boundary(of: contentType) else { preconditionFailure("parts without a boundary") }
    var again: [UInt8] = []
    for part in parts {
        again += Array("--\(boundary)\r\n".utf8)
        for field in part.headers.fields { again += Array("\(field.name): \(field.value)\r\n".utf8) }
        again += Array("\r\n".utf8) + part.body + Array("\r\n".utf8)
    }
    again += Array("--\(boundary)--".utf8)
    let reparsed = MultipartParser.parse(contentType: contentType, body: again)
    precondition(reparsed == parts, "written out again, the parts differ: \(parts) \(String(describing: reparsed))")
    return 0
}

/// The boundary parameter, as the parser reads it (unquoted).
func boundary(of contentType: String) -> String? {
    for piece in contentType.split(separator: ";").dropFirst() {
        let trimmed = piece.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "=") else { continue }
        let name = trimmed[..<equals].filter { $0 != " " && $0 != "\t" }.lowercased()
        guard name == "boundary" else { continue }
        var value = trimmed[trimmed.index(after: equals)...].drop { $0 == " " || $0 == "\t" }[...]
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
        return String(value)
    }
    return nil
}

#if canImport(Glibc)
import Glibc
#endif

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzMultipartParser))
