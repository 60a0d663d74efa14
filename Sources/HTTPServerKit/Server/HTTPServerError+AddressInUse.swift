import Platform

#if canImport(Glibc)
import HTTPHandlerKit
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPServerError {
    /// Whether binding failed because another socket listens on the port.
    package var isAddressInUse: Bool {
        if case .bindFailed(_, _, let code) = self { return code == EADDRINUSE }
        return false
    }

    /// What to do about a port in use, for a tool's error line: listen on a free port with
    /// `OPTION 0`, and, when Linux's `/proc` says, which process holds the port. Nil for
    /// any other error.
    ///
    /// `pass --port 0 to listen on a free port (port 8080 is held by petapi, pid 4242)`
    package func addressInUseAdvice(portOption: String = "--port") -> String? {
        guard isAddressInUse, case .bindFailed(_, let port, _) = self else { return nil }
        var advice = "pass \(portOption) 0 to listen on a free port"
        if let holder = PortHolder.listening(on: port) {
            advice += " (port \(port) is held by \(holder.name), pid \(holder.pid))"
        }
        return advice
    }
}

/// The process listening on a TCP port, found through Linux's `/proc`: the listening
/// sockets' inodes in `/proc/net/tcp` and `tcp6`, then the process with a descriptor on one.
/// Nil when `/proc` is not there or does not tell (another user's process, say).
package struct PortHolder: Sendable, Hashable {
    /// The process id.
    package var pid: Int32
    /// The process's name (`/proc/PID/comm`).
    package var name: String

    /// The process listening on the port, if `/proc` names one.
    package static func listening(on port: Int) -> PortHolder? {
        let inodes = Set(["/proc/net/tcp", "/proc/net/tcp6"].flatMap { listeningInodes(in: $0, port: port) })
        guard !inodes.isEmpty, let proc = opendir("/proc") else { return nil }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), holds(pid: pid, anyOf: inodes) else { continue }
            var command = readSmallFile("/proc/\(pid)/comm") ?? ""
            while command.last?.isNewline == true { command.removeLast() }
            return PortHolder(pid: pid, name: command.isEmpty ? "an unnamed process" : command)
        }
        return nil
    }

    /// The inodes of the sockets listening on the port in a `/proc/net/tcp` table: each line
    /// is `sl local_address rem_address st ... inode`, the address `HEXIP:HEXPORT`, `0A` LISTEN.
    static func listeningInodes(in table: String, port: Int) -> [String] {
        guard let text = readSmallFile(table) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port, fields[9] != "0"
            else { return nil }
            return String(fields[9])
        }
    }

    /// Whether one of the process's descriptors is a socket with one of these inodes.
    private static func holds(pid: Int32, anyOf inodes: Set<String>) -> Bool {
        let folder = "/proc/\(pid)/fd"
        guard let descriptors = opendir(folder) else { return false }
        defer { closedir(descriptors) }
        var buffer = [CChar](repeating: 0, count: 256)
        while let entry = readdir(descriptors) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true else { continue }
            let count = readlink("\(folder)/\(name)", &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // socket:[12345]
            guard target.hasPrefix("socket:["), target.hasSuffix("]") else { continue }
            if inodes.contains(String(target.dropFirst(8).dropLast())) { return true }
        }
        return false
    }

    /// A small file's text (a `/proc` table), or nil when it cannot be read.
    private static func readSmallFile(_ path: String) -> String? {
        guard let bytes = try? FileSystem.read(path, atMost: 16 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
