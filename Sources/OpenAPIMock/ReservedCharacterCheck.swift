import HTTPCore
import MockEngine

/// An Encoding Object's `allowReserved` for a form body's fields, as Prism checks it: a field
/// whose `allowReserved` is false (the default) must percent-encode RFC 3986's reserved
/// characters (§2.2). Checked on the raw text, before decoding, one pass over it: each pair's
/// name is looked up once in a table of the names to check. A query parameter's `allowReserved`
/// is read and written but not enforced: RFC 3986 lets `:`, `/`, `?` and `@` stand in a query,
/// and clients send them so (Foundation's `URLComponents` among them), so a raw one says nothing
/// about how the client serialised the value.
struct ReservedCharacterCheck: Sendable {
    /// What a name checks: where its violations are reported and the separator its style puts
    /// between values, which may stand unencoded.
    struct Target: Sendable {
        let location: String
        let separators: [UInt8]
    }

    /// RFC 3986 §2.2's reserved characters, but `+`, which a query reads as a space, and `&`
    /// and `#`, which cannot stand in a value unencoded.
    static let reserved: [UInt8] = Array(":/?[]@!$'()*,;=".utf8)

    /// The names whose values are checked.
    private let exact: [String: Target]
    /// The `deepObject` parameters, whose pairs are `NAME[member]`.
    private let deep: [String: Target]

    init(exact: [String: Target] = [:], deep: [String: Target] = [:]) {
        self.exact = exact
        self.deep = deep
    }

    var isEmpty: Bool { exact.isEmpty && deep.isEmpty }

    /// The violations of a raw form body, at most `limit`, in order.
    func violations(_ raw: Substring, limit: Int, subject: String = "form field") -> [RequestViolation] {
        guard !isEmpty, limit > 0 else { return [] }
        var violations: [RequestViolation] = []
        for pair in raw.utf8.split(separator: UInt8(ascii: "&")) where violations.count < limit {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            guard let equals else { continue }
            let rawName = Substring(pair[..<equals])
            let name = rawName.removingPercentEncoding(plusAsSpace: true) ?? String(rawName)
            let target: Target?
            if let found = exact[name] {
                target = found
            } else if let bracket = name.firstIndex(of: "["), let found = deep[String(name[..<bracket])] {
                let member = name[bracket...].dropFirst().dropLast().replacing("][", with: ".")
                // The member is the request's text: escaped as every text quoted from it is.
                target = Target(location: found.location + "." + ViolationText.found(String(member)), separators: [])
            } else {
                target = nil
            }
            guard let target else { continue }
            let value = pair[pair.index(after: equals)...]
            guard
                let bad = value.first(where: { Self.reserved.contains($0) && !target.separators.contains($0) })
            else { continue }
            let character = String(UnicodeScalar(bad))
            violations.append(
                RequestViolation(
                    location: target.location, expected: "reserved characters percent-encoded (allowReserved is false)",
                    found: ViolationText.quoted(String(Substring(value))),
                    message:
                        "the \(subject) of \(ViolationText.quoted(name)) holds the reserved character '\(character)' unencoded"
                ))
        }
        return violations
    }
}
