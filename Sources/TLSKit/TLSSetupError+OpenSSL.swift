import COpenSSL
import HTTPServerKit

extension TLSSetupError {
    /// OpenSSL's queued errors of this thread as one line, and the queue emptied.
    static func drainedErrors() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            if reasons.count < 4, let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            }
        }
        return reasons.isEmpty ? "no reason given" : reasons.joined(separator: ", ")
    }
}
