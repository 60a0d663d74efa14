import FuzzDriver
import HTTPCore
import MockEngine
import StubServerKit

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

/// The boundary parameter, as the parser reads it (unquoted, trimmed as Unicode scalars).
func boundary(of contentType: String) -> String? {
    for piece in contentType.unicodeScalars.split(separator: ";").dropFirst() {
        guard let equals = piece.firstIndex(of: "=") else { continue }
        // The name trimmed at its ends only, as the parser does: `boundar y=` is another name.
        var name = piece[..<equals]
        while name.first == " " || name.first == "\t" { name = name.dropFirst() }
        while name.last == " " || name.last == "\t" { name = name.dropLast() }
        guard String(String.UnicodeScalarView(name)).lowercased() == "boundary" else { continue }
        var value = piece[piece.index(after: equals)...]
        while value.first == " " || value.first == "\t" { value = value.dropFirst() }
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
        return String(String.UnicodeScalarView(value))
    }
    return nil
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzMultipartParser))
