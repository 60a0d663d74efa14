import APISchema
import JSONKit

extension SecurityCheck {
    /// A scheme of the document petmock does not check, found when it loads: one it cannot
    /// read (an unknown `type`, an apiKey without `name`), `mutualTLS`, or a name a `security`
    /// requirement uses that `components/securitySchemes` does not define. Requests are not
    /// refused for it.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// Where, as a JSON pointer: `#/components/securitySchemes/key`, `#/security/0/key`.
        public var pointer: String
        /// What is wrong.
        public var reason: String

        /// Creates a problem.
        public init(pointer: String, reason: String) {
            self.pointer = pointer
            self.reason = reason
        }

        /// `#/security/0/key: security scheme 'key' is not defined ...; not checked`.
        public var description: String { "\(pointer): \(reason); requests are not checked for it" }
    }

    /// The schemes of `contract` petmock does not check, in document order: the unreadable and
    /// `mutualTLS` schemes, then each requirement's undefined name (the document's, then the
    /// operations').
    public static func problems(in contract: Contract) -> [Problem] {
        var problems: [Problem] = []
        for scheme in contract.securitySchemes {
            let pointer = DocumentPointer.make(["components", "securitySchemes", scheme.name])
            switch scheme.kind {
            case .unsupported(let reason):
                problems.append(Problem(pointer: pointer, reason: "security scheme '\(scheme.name)': \(reason)"))
            case .mutualTLS:
                problems.append(
                    Problem(
                        pointer: pointer,
                        reason:
                            "security scheme '\(scheme.name)' is mutualTLS, which petmock cannot check over plain HTTP")
                )
            case .apiKey, .http, .oauth2, .openIdConnect: break
            }
        }
        func undefined(_ requirements: [SecurityRequirement]?, at tokens: [String]) {
            for (index, requirement) in (requirements ?? []).enumerated() {
                for entry in requirement.entries where contract.securityScheme(named: entry.scheme) == nil {
                    problems.append(
                        Problem(
                            pointer: DocumentPointer.make(tokens + ["security", String(index), entry.scheme]),
                            reason: "security scheme '\(entry.scheme)' is not defined in components/securitySchemes"))
                }
            }
        }
        undefined(contract.security, at: [])
        for operation in contract.operations {
            undefined(operation.security, at: ["paths", operation.path, operation.method.rawValue.lowercased()])
        }
        return problems
    }
}

/// JSON pointers into the document (RFC 6901), as petmock's load-time warnings name places.
enum DocumentPointer {
    /// `#/` then the tokens, `~` written `~0` and `/` written `~1`.
    static func make(_ tokens: [String]) -> String {
        "#/" + tokens.map { JSONPointerToken.escape($0) }.joined(separator: "/")
    }
}
