import APISchema
import HTTPCore
import JSONKit
import MockEngine

extension BodyCheck {
    /// A body that cannot be read as its media type: the one violation saying why.
    struct MalformedBody: Error {
        let violation: RequestViolation
    }

    /// A form body as an object, each field read as the kind its property documents (the
    /// first occurrence of a name; an array property takes every occurrence, or the values of
    /// one occurrence split as its encoding's `style` and `explode` say).
    static func formValue(_ text: String, _ entry: Media) -> JSONValue {
        guard let members = entry.members else { return .object([:]) }
        var pairs: [(path: [String], text: String)] = []
        for (name, value) in QueryParameters.parse(text) {
            if members.member(name)?.isArray == true, let separator = Media.separator(entry.encoding[name]) {
                for item in value.split(separator: separator, omittingEmptySubsequences: false) {
                    pairs.append(([name], String(item)))
                }
            } else {
                pairs.append(([name], value))
            }
        }
        return members.object(pairs)
    }

    /// A `multipart/form-data` body (RFC 7578) as an object: each part named by its
    /// `Content-Disposition`, read as its property says (a number, a Boolean, JSON for an
    /// object, text for a string or a `format: binary` file); an array property takes every
    /// part of its name, any other the first. A part whose media type its `encoding` does not
    /// list is a violation, and so is a part whose header fields break its encoding's
    /// `headers` (a required one missing, a value its schema refuses: at
    /// `body.$.NAME.header.FIELD`); a body that is not multipart is malformed.
    static func multipartValue(
        _ body: [UInt8], contentType: String, _ entry: Media, limit: Int
    ) -> Result<(value: JSONValue, violations: [RequestViolation]), MalformedBody> {
        guard let parts = MultipartParser.parse(contentType: contentType, body: body) else {
            let boundary = MultipartParser.parameter("boundary", in: contentType)
            return .failure(
                MalformedBody(
                    violation: RequestViolation(
                        location: "body",
                        expected: boundary == nil
                            ? "a boundary parameter in the Content-Type" : "a well-formed multipart/form-data body",
                        found: boundary == nil
                            ? ViolationText.quoted(contentType)
                            : "no part delimited by '--\(ViolationText.found(boundary ?? ""))' and closed",
                        message: "the request body is not a well-formed multipart/form-data body")))
        }
        var keys: [String] = []
        var values: [String: [JSONValue]] = [:]
        var violations: [RequestViolation] = []
        for (index, part) in parts.enumerated() {
            guard let name = part.dispositionParameter("name"),
                part.headers["Content-Disposition"]?.lowercased().hasPrefix("form-data") == true
            else {
                return .failure(
                    MalformedBody(
                        violation: RequestViolation(
                            location: "body", expected: "a 'Content-Disposition: form-data; name=...' field",
                            found: part.headers["Content-Disposition"].map(ViolationText.quoted) ?? "none",
                            message: "part \(index + 1) of the multipart body has no field name")))
            }
            let member = entry.members?.member(name)
            let partType = part.headers["Content-Type"].map { $0.mediaTypeEssence } ?? "text/plain"
            if let allowed = entry.encoding[name]?.contentType, violations.count < limit,
                !Self.mediaType(partType, isIn: allowed)
            {
                violations.append(
                    RequestViolation(
                        location: "body.$." + name, expected: "a part of media type \(allowed)",
                        found: ViolationText.quoted(partType),
                        message: "the part \(ViolationText.quoted(name)) should be \(allowed), not \(partType)"))
            }
            for header in entry.partHeaders[name] ?? [] where violations.count < limit {
                let found = header.violations(part.headers.values(name: header.name), limit: limit - violations.count)
                violations += found.map { violation in
                    RequestViolation(
                        location: "body.$.\(name).\(violation.location)", expected: violation.expected,
                        found: violation.found,
                        message: "the part \(ViolationText.quoted(name)): \(violation.message)")
                }
            }
            let kinds = member.map { $0.isArray ? $0.itemKinds : $0.kinds } ?? []
            let value: JSONValue
            if kinds.contains(.object) || kinds.contains(.array) || isJSON(partType) && !kinds.contains(.string) {
                do {
                    value = try JSONValue(parsing: part.body)
                } catch {
                    return .failure(
                        MalformedBody(
                            violation: RequestViolation(
                                location: "body.$." + name, expected: "well-formed JSON",
                                found: ViolationText.found("\(error)"),
                                message: "the part \(ViolationText.quoted(name)) is not well-formed JSON")))
                }
            } else {
                value = ParameterCheck.read(String(decoding: part.body, as: UTF8.self), as: kinds)
            }
            if values[name] == nil { keys.append(name) }
            values[name, default: []].append(value)
        }
        let object = JSONObject(
            keys.map { key in
                let found = values[key] ?? []
                let isArray = entry.members?.member(key)?.isArray ?? false
                return JSONMember(key: key, value: isArray ? .array(found) : found.first ?? .null)
            })
        return .success((.object(object), violations))
    }

    /// Whether a media type is one of a comma-separated list (`image/png, image/*`, `*/*`).
    static func mediaType(_ type: String, isIn list: String) -> Bool {
        let major = type.split(separator: "/").first.map { $0 + "/*" } ?? ""
        return list.split(separator: ",").contains { written in
            let allowed = String(written).mediaTypeEssence
            return allowed == type || allowed == major || allowed == "*/*"
        }
    }
}
