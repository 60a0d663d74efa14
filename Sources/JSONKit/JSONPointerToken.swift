/// One token of a JSON pointer (RFC 6901), escaped and unescaped by Unicode scalar: `~` is
/// written `~0` and `/` is written `~1`, whatever combining marks follow them.
package enum JSONPointerToken {
    /// `token` as it is written in a pointer: `a/b~c` → `a~1b~0c`.
    package static func escape(_ token: some StringProtocol) -> String {
        var written = String.UnicodeScalarView()
        for scalar in token.unicodeScalars {
            switch scalar {
            case "~": written.append(contentsOf: "~0".unicodeScalars)
            case "/": written.append(contentsOf: "~1".unicodeScalars)
            default: written.append(scalar)
            }
        }
        return String(written)
    }

    /// The token a pointer's `written` piece stands for: `a~1b~0c` → `a/b~c`. A `~` before
    /// anything but `0` or `1` is kept as written.
    package static func unescape(_ written: some StringProtocol) -> String {
        var token = String.UnicodeScalarView()
        var pendingTilde = false
        for scalar in written.unicodeScalars {
            if pendingTilde {
                pendingTilde = false
                switch scalar {
                case "0": token.append("~")
                case "1": token.append("/")
                case "~":
                    token.append("~")
                    pendingTilde = true
                default:
                    token.append("~")
                    token.append(scalar)
                }
            } else if scalar == "~" {
                pendingTilde = true
            } else {
                token.append(scalar)
            }
        }
        if pendingTilde { token.append("~") }
        return String(token)
    }
}
