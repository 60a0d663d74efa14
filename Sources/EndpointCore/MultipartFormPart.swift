#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One part of a `multipart/form-data` body (RFC 7578): a form field or a file.
public struct MultipartFormPart: Sendable, Hashable {
    /// The form field name.
    public var name: String
    /// The file name, for a file part.
    public var filename: String?
    /// The part's media type; nil sends none (a plain text field).
    public var contentType: String?
    /// The part's bytes.
    public var data: [UInt8]

    /// Creates a part.
    public init(name: String, filename: String? = nil, contentType: String? = nil, data: [UInt8]) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    /// A text form field.
    public static func field(_ name: String, _ value: String) -> MultipartFormPart {
        MultipartFormPart(name: name, data: Array(value.utf8))
    }

    /// A file given as bytes.
    public static func file(
        _ name: String, filename: String, contentType: String = "application/octet-stream", data: [UInt8]
    ) -> MultipartFormPart {
        MultipartFormPart(name: name, filename: filename, contentType: contentType, data: data)
    }

    /// A file read from disk now; its name is the last path component.
    public static func file(
        _ name: String, contentsOf path: String, contentType: String = "application/octet-stream"
    ) throws(EndpointError) -> MultipartFormPart {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidRequest("cannot read file '\(path)' for multipart field '\(name)'")
        }
        let filename = path.split(separator: "/").last.map(String.init) ?? path
        return MultipartFormPart(name: name, filename: filename, contentType: contentType, data: Array(data))
    }

    /// The parts as one body separated by `boundary`.
    static func encode(_ parts: [MultipartFormPart], boundary: String) -> [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(quoted(filename))\"" }
            head += "\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "\r\n"
            body += Array(head.utf8)
            body += part.data
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    // RFC 7578 §4.2: quotes and line breaks in names are percent-encoded, as browsers do.
    private static func quoted(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.append(character)
            }
        }
        return result
    }

    /// A boundary that occurs in none of the parts.
    static func boundary(for parts: [MultipartFormPart]) -> String {
        while true {
            let candidate = "petkit-" + String(UInt64.random(in: .min ... .max), radix: 16)
            let needle = Array(candidate.utf8)
            if !parts.contains(where: { $0.data.contains(subsequence: needle) }) { return candidate }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
