#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard output at once (no buffering, so a reader sees it immediately).
func writeOutput(_ message: String, terminator: String = "\n") {
    var bytes = Array(message.utf8)
    bytes.append(contentsOf: terminator.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if written <= 0 { return }
        offset += written
    }
}
