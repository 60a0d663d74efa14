import StubFormat

/// The forms of credentials a request carries, read by their bytes: checked for presence and
/// form, never for their value (a mock knows no users).
///
/// ```swift
/// CredentialForm.authorization("Basic dGVzdDp0ZXN0")  // ("Basic", "dGVzdDp0ZXN0")
/// CredentialForm.isBasic("dGVzdDp0ZXN0")             // true: base64 of "test:test"
/// CredentialForm.isToken68("abc.def-ghi==")         // true
/// ```
package enum CredentialForm {
    /// An `Authorization` value's scheme and what follows it (RFC 9110 §11.4: `scheme` then
    /// one or more spaces, then a token68 or auth-params), spaces and tabs around them set
    /// aside; nil when the value is empty or its scheme is not a token.
    package static func authorization(_ value: String) -> (scheme: Substring, credentials: Substring)? {
        let text = value.trimmingASCIISpaces()
        let bytes = text.utf8
        let end = bytes.firstIndex { $0 == 0x20 || $0 == 0x09 } ?? bytes.endIndex
        let scheme = Substring(bytes[bytes.startIndex..<end])
        guard !scheme.isEmpty, scheme.utf8.allSatisfy(\.isTokenCharacter) else { return nil }
        let rest = Substring(bytes[end...]).trimmingASCIISpaces()
        return (scheme, rest)
    }

    /// Whether the text is a token68 (RFC 9110 §11.2: letters, digits, `-._~+/`, then `=`
    /// padding), as bearer tokens and Basic credentials are written.
    package static func isToken68(_ text: some StringProtocol) -> Bool {
        var bytes = Substring(text).utf8[...]
        while bytes.last == UInt8(ascii: "=") { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
                UInt8(ascii: "/"):
                true
            default: false
            }
        }
    }

    /// Whether Basic credentials are well formed (RFC 7617 §2): a token68 that is base64 of
    /// a user-id and a password joined by a colon (either may be empty).
    package static func isBasic(_ credentials: some StringProtocol) -> Bool {
        guard isToken68(credentials), let decoded = Base64.decode(String(credentials)) else { return false }
        return decoded.contains(UInt8(ascii: ":"))
    }

    /// Whether an `Authorization` value carries credentials of an HTTP authentication scheme
    /// (compared without case): for `basic`, base64 of `user:password`; for `bearer`, a
    /// token68; for another scheme (`digest`, say), anything after the scheme's name.
    package static func authorization(_ value: String, meets scheme: String) -> Bool {
        guard let (sent, credentials) = authorization(value), sent.equalsIgnoringASCIICase(scheme) else {
            return false
        }
        switch scheme.lowercased() {
        case "basic": return isBasic(credentials)
        case "bearer": return isToken68(credentials)
        default: return !credentials.isEmpty
        }
    }

    /// Whether an API key is given: a value that is not empty once spaces and tabs around it
    /// are set aside.
    package static func isKey(_ value: String?) -> Bool {
        guard let value else { return false }
        return !value.trimmingASCIISpaces().isEmpty
    }
}
