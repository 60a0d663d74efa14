import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line on standard error that says which operation `verify --live` is checking, rewritten
/// in place; only when standard error is a terminal (nothing at all in CI logs or pipes).
struct ProgressLine: Sendable {
    /// The line when standard error is a terminal, else nil.
    static func onTerminal() -> ProgressLine? {
        isatty(2) == 1 ? ProgressLine() : nil
    }

    /// Shows where the verification is, replacing the previous line.
    @Sendable func show(_ progress: some CustomStringConvertible) {
        var text = "checking " + progress.description
        // Operation names come from the contract file: no control characters reach the terminal.
        text = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        if text.count > 100 { text = String(text.prefix(99)) + "…" }
        emit("\r\u{1B}[2K" + text)
    }

    /// Removes the line.
    func clear() {
        emit("\r\u{1B}[2K")
    }

    private func emit(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Descriptor.write(2, $0.baseAddress, $0.count) }
    }
}
